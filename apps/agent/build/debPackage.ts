import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LINUX_DEFAULTS, systemdUnit } from '../src/cli/install/serviceFiles.ts';

/**
 * The Linux program as a Debian package (`dpkg-deb`), for IT that installs with apt/dpkg and expects
 * `apt remove` / `apt purge` to undo it: the program in /opt/gp-agent, the systemd unit (the same one
 * `gp-agent install` writes), the service account made by postinst, and purge removing the
 * configuration (it holds the token) and the account. The maintainer scripts prefix every path with
 * $DPKG_ROOT, as dpkg does for `--root` installs, which is also how the tests run them in a folder.
 */

const { installDir, configDir, user } = LINUX_DEFAULTS;
const PROGRAM = `${installDir}/gp-agent`;
const CONFIG = `${configDir}/gp-agent.conf`;
const UNIT = '/lib/systemd/system/gp-agent.service';
const EXAMPLE = '/usr/share/doc/gp-agent/gp-agent.conf.example';

/** `true` where systemd runs the machine dpkg installs into (sd_booted(3)'s test). */
const SYSTEMD = '[ -d "$DPKG_ROOT/run/systemd/system" ]';

const POSTINST = `#!/bin/sh
# gp-agent postinst: the service account, the private configuration folder, the unit registered; the
# service starts only once its configuration exists (it holds the token, which no package can know).
set -e
if [ "$1" = configure ]; then
  if ! getent passwd ${user} >/dev/null; then
    useradd --system --user-group --home-dir ${installDir} --no-create-home --shell /usr/sbin/nologin ${user}
  fi
  mkdir -p "$DPKG_ROOT${configDir}"
  chown root:${user} "$DPKG_ROOT${configDir}"
  chmod 0750 "$DPKG_ROOT${configDir}"
  if [ -f "$DPKG_ROOT${CONFIG}" ]; then
    chown root:${user} "$DPKG_ROOT${CONFIG}"
    chmod 0640 "$DPKG_ROOT${CONFIG}"
  fi
  if ${SYSTEMD}; then
    systemctl daemon-reload
    if [ -f "$DPKG_ROOT${CONFIG}" ]; then
      systemctl enable gp-agent.service
      systemctl restart gp-agent.service
      echo "gp-agent: started with ${CONFIG}; logs: journalctl -u gp-agent"
    else
      echo "gp-agent: installed, NOT started: write ${CONFIG} (from ${EXAMPLE}),"
      echo "  check it with: runuser -u ${user} -- ${PROGRAM} diagnose --config ${CONFIG}"
      echo "  then: systemctl enable --now gp-agent"
    fi
  else
    echo "gp-agent: installed, NOT started (this machine does not run systemd). Write ${CONFIG}, then run:"
    echo "  runuser -u ${user} -- ${PROGRAM} run --config ${CONFIG}"
  fi
fi
exit 0
`;

const PRERM = `#!/bin/sh
# gp-agent prerm: stop the agent (it drains first) when the package goes; an upgrade restarts it in postinst.
set -e
if [ "$1" = remove ] && ${SYSTEMD}; then
  systemctl disable --now gp-agent.service || true
fi
exit 0
`;

const POSTRM = `#!/bin/sh
# gp-agent postrm: remove takes the previous program gp-agent update kept; purge also removes what the
# package made outside its files: the configuration (it holds the token) and the service account.
set -e
if ${SYSTEMD}; then
  systemctl daemon-reload || true
fi
if [ "$1" = remove ] || [ "$1" = purge ]; then
  # gp-agent update keeps the program it replaced beside it, a file no package owns: without this,
  # it and its folder would outlive the package.
  rm -f "$DPKG_ROOT${PROGRAM}.previous"
  rmdir "$DPKG_ROOT${installDir}" 2>/dev/null || true
fi
if [ "$1" = purge ]; then
  rm -rf "$DPKG_ROOT${configDir}"
  if getent passwd ${user} >/dev/null; then
    userdel ${user} || true
  fi
  echo "gp-agent: purged. Revoke the connection's agent token at the gateway unless another agent uses it:"
  echo "  gp-gateway connection revoke-token <connection> --org <organisation>"
fi
exit 0
`;

export interface DebRequest {
  /** The Linux single-file program. */
  program: string;
  version: string;
  /** The configuration example shipped as documentation (deploy/gp-agent.conf.example). */
  example: string;
  /** The folder the .deb is written to; its name is Debian's, gp-agent_<version>_amd64.deb. */
  outDir: string;
  /** Every file's time, for reproducible packages (SOURCE_DATE_EPOCH, in seconds). */
  epoch: number;
}

function control(version: string, installedKb: number): string {
  return `Package: gp-agent
Version: ${version}
Architecture: amd64
Maintainer: GP gateway <support@gp-gateway.invalid>
Installed-Size: ${installedKb}
Depends: passwd
Section: net
Priority: optional
Description: GP gateway agent: answers the cloud gateway's requests from Dynamics GP
 One program with its own Node runtime inside; dials out to the gateway over
 HTTPS (no inbound port). Configure /etc/gp-agent/gp-agent.conf, then
 systemctl enable --now gp-agent. Purging removes the configuration and the
 gp-agent account.
`;
}

/** Builds the package; returns its path. */
export function buildDeb(request: DebRequest): string {
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-agent-deb-'));
  try {
    const put = (file: string, mode: number, content: string | Buffer) => {
      const at = path.join(stage, file);
      fs.mkdirSync(path.dirname(at), { recursive: true, mode: 0o755 });
      fs.writeFileSync(at, content, { mode });
      fs.chmodSync(at, mode);
    };
    put(PROGRAM, 0o755, fs.readFileSync(request.program));
    put(UNIT, 0o644, systemdUnit({ program: PROGRAM, installDir, config: CONFIG, user }));
    put(EXAMPLE, 0o644, fs.readFileSync(request.example));
    const installedKb = Math.ceil(fs.statSync(request.program).size / 1024) + 16;
    put('DEBIAN/control', 0o644, control(request.version, installedKb));
    put('DEBIAN/postinst', 0o755, POSTINST);
    put('DEBIAN/prerm', 0o755, PRERM);
    put('DEBIAN/postrm', 0o755, POSTRM);
    // Folders made by mkdir carry the umask and the current time: both would differ between builds.
    for (const entry of fs.readdirSync(stage, { recursive: true, withFileTypes: true })) {
      const at = path.join(entry.parentPath, entry.name);
      if (entry.isDirectory()) fs.chmodSync(at, 0o755);
      fs.utimesSync(at, request.epoch, request.epoch);
    }
    fs.utimesSync(stage, request.epoch, request.epoch);
    fs.chmodSync(stage, 0o755);
    fs.mkdirSync(request.outDir, { recursive: true });
    const out = path.join(request.outDir, `gp-agent_${request.version}_amd64.deb`);
    // gzip, not xz: xz took over a minute on the 128 MB program (on a shared CI core, twice per e2e
    // run) to save about a quarter of the download.
    execFileSync('dpkg-deb', ['--root-owner-group', '-Zgzip', '--build', stage, out], {
      env: { ...process.env, SOURCE_DATE_EPOCH: String(request.epoch) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return out;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}
