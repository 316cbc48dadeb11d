import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WINDOWS_DEFAULTS, winswXml } from '../src/cli/install/serviceFiles.ts';

/**
 * The Windows program as an MSI, built on Linux by `wixl` (Debian's `wixl`, from msitools), for IT
 * that deploys with msiexec or group policy. It installs the program and WinSW into
 * C:\Program Files\gp-agent, registers the service (LocalService, automatic, not started), and, when
 * GATEWAY is given, runs `gp-agent.exe install --in-place` as a deferred custom action: the same code
 * as a manual install locks C:\ProgramData\gp-agent by SID, writes the configuration, sets the
 * service's restarts after a crash (which ServiceInstall cannot), runs diagnose and starts the
 * service, and a failure rolls the whole MSI back. Uninstall stops and removes the service and the
 * program (with the previous one `gp-agent update` kept); the configuration (with the token) stays,
 * as with `gp-agent uninstall`.
 *
 *   msiexec /i gp-agent-0.1.0-x64.msi /qn GATEWAY=https://gateway.example.com TOKENFILE=C:\setup\agent.token
 *     MSSQL="Server=gp01;Database=DYNAMICS;User Id=gp_api_read;Encrypt=true" SQLPASSWORDFILE=C:\setup\sql.pw
 */

/** Stays the same for every version: it is how a newer MSI finds and replaces an older one. */
const UPGRADE_CODE = '6B3F2A4E-7C1D-4E8F-9A2B-3C4D5E6F7A8B';
/** The configuration folder's component: fixed, so that every version counts the same folder as its own. */
const CONFIG_FOLDER_COMPONENT = '6B3F2A4E-7C1D-4E8F-9A2B-3C4D5E6F7A80';

/** The msiexec properties the custom action passes on (public, so msiexec takes them from its command line). */
const PROPERTIES = ['GATEWAY', 'TOKENFILE', 'MSSQL', 'SQLPASSWORDFILE', 'SQLITEDIR'] as const;

export interface MsiRequest {
  /** The Windows single-file program and WinSW's program. */
  program: string;
  winsw: string;
  /** Dotted numbers, as MSI's ProductVersion takes them. */
  version: string;
  outDir: string;
}

const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The WiX source wixl compiles (WiX 3 schema, the part wixl implements). */
function msiSource(files: { program: string; winsw: string; xml: string }, version: string): string {
  const account = WINDOWS_DEFAULTS.serviceAccount;
  const args = [
    'install --in-place',
    '--gateway "[GATEWAY]"',
    '--token-file "[TOKENFILE]"',
    '--mssql "[MSSQL]"',
    '--mssql-password-file "[SQLPASSWORDFILE]"',
    '--sqlite-dir "[SQLITEDIR]"',
  ].join(' ');
  return `<?xml version="1.0" encoding="utf-8"?>
<Wix xmlns="http://schemas.microsoft.com/wix/2006/wi">
  <Product Id="*" Name="GP gateway agent" Language="1033" Version="${version}" Manufacturer="GP gateway" UpgradeCode="${UPGRADE_CODE}">
    <Package InstallerVersion="500" Compressed="yes" InstallScope="perMachine" Description="GP gateway agent ${version}"/>
    <Media Id="1" Cabinet="agent.cab" EmbedCab="yes"/>
    <MajorUpgrade DowngradeErrorMessage="A newer GP gateway agent is installed already."/>
    <Directory Id="TARGETDIR" Name="SourceDir">
      <Directory Id="ProgramFiles64Folder">
        <Directory Id="INSTALLDIR" Name="gp-agent">
          <Component Id="Program" Guid="*" Win64="yes">
            <File Id="GpAgentExe" Name="gp-agent.exe" Source="${attr(files.program)}" KeyPath="yes"/>
          </Component>
          <Component Id="Service" Guid="*" Win64="yes">
            <File Id="WinswExe" Name="gp-agent-service.exe" Source="${attr(files.winsw)}" KeyPath="yes"/>
            <File Id="WinswXml" Name="gp-agent-service.xml" Source="${attr(files.xml)}"/>
            <ServiceInstall Id="GpAgentService" Name="gp-agent" DisplayName="GP gateway agent" Description="Answers the GP gateway's requests from Dynamics GP. Outbound HTTPS only. Support: gp-agent diagnose." Type="ownProcess" Start="auto" ErrorControl="normal" Account="${attr(account)}"/>
            <ServiceControl Id="GpAgentServiceControl" Name="gp-agent" Stop="both" Remove="uninstall" Wait="yes"/>
          </Component>
        </Directory>
      </Directory>
      <Directory Id="CommonAppDataFolder">
        <Directory Id="CONFIGDIR" Name="gp-agent">
          <Component Id="ConfigFolder" Guid="${CONFIG_FOLDER_COMPONENT}" Win64="yes">
            <CreateFolder/>
          </Component>
        </Directory>
      </Directory>
    </Directory>
    <CustomAction Id="Configure" FileKey="GpAgentExe" ExeCommand="${attr(args)}" Execute="deferred" Impersonate="no" Return="check"/>
    <InstallExecuteSequence>
      <Custom Action="Configure" After="InstallServices">GATEWAY AND NOT REMOVE</Custom>
    </InstallExecuteSequence>
    <Feature Id="Agent" Level="1">
      <ComponentRef Id="Program"/>
      <ComponentRef Id="Service"/>
      <ComponentRef Id="ConfigFolder"/>
    </Feature>
  </Product>
</Wix>
`;
}

/** Builds gp-agent-<version>-x64.msi; returns its path. */
export function buildMsi(request: MsiRequest): string {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-agent-msi-'));
  try {
    const w = path.win32;
    const { installDir, configDir } = WINDOWS_DEFAULTS;
    const xml = path.join(work, 'gp-agent-service.xml');
    fs.writeFileSync(
      xml,
      winswXml({
        program: w.join(installDir, 'gp-agent.exe'),
        installDir,
        config: w.join(configDir, 'gp-agent.conf'),
        logDir: w.join(configDir, 'logs'),
      }),
    );
    // wixl takes sources relative to its folder only: links to the programs sit beside the source.
    fs.symlinkSync(path.resolve(request.program), path.join(work, 'gp-agent.exe'));
    fs.symlinkSync(path.resolve(request.winsw), path.join(work, 'gp-agent-service.exe'));
    const wxs = path.join(work, 'gp-agent.wxs');
    fs.writeFileSync(
      wxs,
      msiSource({ program: 'gp-agent.exe', winsw: 'gp-agent-service.exe', xml: 'gp-agent-service.xml' }, request.version),
    );
    fs.mkdirSync(request.outDir, { recursive: true });
    const out = path.resolve(request.outDir, `gp-agent-${request.version}-x64.msi`);
    try {
      execFileSync('wixl', ['--arch', 'x64', '--output', out, 'gp-agent.wxs'], {
        cwd: work,
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
    } catch (error) {
      const { stderr, message } = error as { stderr?: string; message: string };
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('wixl is needed for the MSI (Debian: apt-get install wixl)');
      throw new Error(`wixl failed: ${stderr || message}`);
    }
    // wixl writes SecureCustomProperties itself (for MajorUpgrade) and refuses a second row: the
    // custom action's properties are added to it after, so that msiexec passes them on in managed installs too.
    const secure = `WIX_DOWNGRADE_DETECTED;WIX_UPGRADE_DETECTED;${PROPERTIES.join(';')}`;
    execFileSync('msibuild', [out, '-q', `UPDATE \`Property\` SET \`Value\` = '${secure}' WHERE \`Property\` = 'SecureCustomProperties'`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // What `gp-agent update` leaves beside the program (replaceProgram.ts: the program it replaced, and
    // one a failed restart put aside) goes when the program does: wixl has no <RemoveFile>, so the rows
    // go into the RemoveFile table it creates empty (install mode 2: on uninstall).
    for (const [key, name] of [
      ['PreviousProgram', 'gp-agent.previous.exe'],
      ['FailedProgram', 'gp-agent.exe.failed'],
    ])
      execFileSync(
        'msibuild',
        [
          out,
          '-q',
          `INSERT INTO \`RemoveFile\` (\`FileKey\`, \`Component_\`, \`FileName\`, \`DirProperty\`, \`InstallMode\`) VALUES ('${key}', 'Program', '${name}', 'INSTALLDIR', 2)`,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
    return out;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
