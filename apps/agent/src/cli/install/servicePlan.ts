import path from 'node:path';
import {
  configFileText,
  LINUX_DEFAULTS,
  systemdUnit,
  WINDOWS_DEFAULTS,
  WINDOWS_RECOVERY,
  winswXml,
  type InstalledSettings,
} from './serviceFiles.ts';

/**
 * What `gp-agent install` and `uninstall` do, as a list of steps decided before any is taken: the
 * same list is printed, tested (servicePlan.test.ts, e2e/agentProgram.test.ts) and carried out
 * (applyPlan.ts). Each step says why, because the person running it is the customer's IT.
 */
export type Step =
  | { kind: 'mkdir'; path: string; mode: number }
  | { kind: 'copy'; from: string; to: string; mode: number }
  /** `keep`: an existing file is left as it is (a configuration someone edited). `secret`: never printed. */
  | { kind: 'write'; path: string; text: string; mode: number; keep?: boolean; secret?: boolean }
  /** `tree`: a folder and everything in it. */
  | { kind: 'remove'; path: string; tree?: boolean }
  /**
   * A system command, named without a folder: applyPlan runs it from the system's own folders, never
   * through PATH. `okCodes` beyond 0 are answers, not failures (useradd: the user exists), and do not
   * call for `undo`; `tolerated` says why a failure is fine (uninstall: the service is not there).
   * `undo` is run when a later step fails, in reverse order (install leaves nothing half-done).
   */
  | {
      kind: 'run';
      command: string;
      args: string[];
      why: string;
      okCodes?: number[];
      tolerated?: string;
      undo?: { command: string; args: string[] };
    }
  /** `gp-agent diagnose` on the written configuration; the steps after it run only when it passes. */
  | { kind: 'diagnose'; config: string };

export interface InstallRequest {
  platform: 'linux' | 'win32';
  /** The single-file program being installed (the running one). */
  program: string;
  settings: InstalledSettings;
  /** Windows: the account the service runs as. */
  serviceAccount?: string;
  /** Windows: WinSW's program, copied beside the agent as gp-agent-service.exe. */
  winsw?: string;
  /** Linux: whether systemd runs this machine; without it nothing is registered or started. Default true. */
  systemd?: boolean;
  /**
   * Windows: the MSI has put the program, WinSW and its service file in place and registered the
   * service; install only writes the configuration (locked first), checks it and starts the service.
   */
  inPlace?: boolean;
}

export interface UninstallRequest {
  platform: 'linux' | 'win32';
  /** Also remove the configuration (it holds the token) and, on Linux, the service account. */
  purge?: boolean;
  /** Linux: whether systemd runs this machine. Default true. */
  systemd?: boolean;
}

export interface Plan {
  steps: Step[];
  /** Where things went, for the closing message. */
  config: string;
  logs: string;
  /** What is left to a person, said at the end. */
  notes: string[];
  /** Whether the last step starts the service: only then may the end say it started. */
  starts: boolean;
}

/** Said after every uninstall: the token outlives the agent until the gateway revokes it. */
const REVOKE_NOTE =
  "The connection's agent token is still valid at the gateway. Unless another agent of the connection uses it, revoke it there: " +
  'gp-gateway connection revoke-token <connection> --org <organisation>';

export function installPlan(request: InstallRequest): Plan {
  return request.platform === 'win32' ? windowsInstall(request) : linuxInstall(request);
}

export function uninstallPlan(request: UninstallRequest): Plan {
  return request.platform === 'win32' ? windowsUninstall(request) : linuxUninstall(request);
}

function linuxPaths() {
  const p = path.posix;
  const { installDir, configDir, unit, user } = LINUX_DEFAULTS;
  return { installDir, configDir, unit, user, program: p.join(installDir, 'gp-agent'), config: p.join(configDir, 'gp-agent.conf') };
}

/** How to run the agent by hand as its service account, where no service manager does (a container, WSL). */
function manualRun(l: ReturnType<typeof linuxPaths>): string {
  return `runuser -u ${l.user} -- ${l.program} run --config ${l.config}`;
}

function linuxInstall(request: InstallRequest): Plan {
  const l = linuxPaths();
  const systemd = request.systemd ?? true;
  const steps: Step[] = [
    {
      kind: 'run',
      command: 'useradd',
      args: ['--system', '--user-group', '--home-dir', l.installDir, '--no-create-home', '--shell', '/usr/sbin/nologin', l.user],
      why: 'the service account (exit 9: it exists already)',
      okCodes: [9],
      undo: { command: 'userdel', args: [l.user] },
    },
    { kind: 'mkdir', path: l.installDir, mode: 0o755 },
    { kind: 'copy', from: request.program, to: l.program, mode: 0o755 },
    { kind: 'mkdir', path: l.configDir, mode: 0o750 },
    { kind: 'write', path: l.config, text: configFileText(request.settings), mode: 0o640, keep: true, secret: true },
    {
      kind: 'run',
      command: 'chown',
      args: [`root:${l.user}`, l.configDir, l.config],
      why: 'the configuration holds the token: root writes it, the service account reads it, nobody else',
    },
  ];
  if (!systemd) {
    steps.push({ kind: 'diagnose', config: l.config });
    const notes = [
      'This machine does not run systemd, so no service was registered and nothing was started.',
      `Run the agent by hand (or from your own supervisor), as its account: ${manualRun(l)}`,
    ];
    return { steps, config: l.config, logs: 'standard output', notes, starts: false };
  }
  steps.push(
    { kind: 'write', path: l.unit, text: systemdUnit(l), mode: 0o644 },
    { kind: 'run', command: 'systemctl', args: ['daemon-reload'], why: 'systemd reads the new unit' },
    {
      kind: 'run',
      command: 'systemctl',
      args: ['enable', 'gp-agent'],
      why: 'the agent starts with the server',
      undo: { command: 'systemctl', args: ['disable', 'gp-agent'] },
    },
    { kind: 'diagnose', config: l.config },
    { kind: 'run', command: 'systemctl', args: ['restart', 'gp-agent'], why: 'start the agent (or restart it on the new program)' },
  );
  return { steps, config: l.config, logs: 'journalctl -u gp-agent -f', notes: [], starts: true };
}

function linuxUninstall(request: UninstallRequest): Plan {
  const l = linuxPaths();
  const systemd = request.systemd ?? true;
  const steps: Step[] = [];
  if (systemd)
    steps.push({
      kind: 'run',
      command: 'systemctl',
      args: ['disable', '--now', 'gp-agent'],
      why: 'stop the agent (it drains first) and its start at boot',
      tolerated: 'no gp-agent service is registered: nothing to stop',
    });
  steps.push({ kind: 'remove', path: l.unit });
  if (systemd) steps.push({ kind: 'run', command: 'systemctl', args: ['daemon-reload'], why: 'systemd forgets the unit' });
  steps.push({ kind: 'remove', path: l.installDir, tree: true });
  if (request.purge)
    steps.push(
      { kind: 'remove', path: l.configDir, tree: true },
      {
        kind: 'run',
        command: 'userdel',
        args: [l.user],
        why: 'remove the service account',
        okCodes: [6],
        tolerated: `there is no ${l.user} account`,
      },
    );
  const notes = [
    ...(request.purge
      ? []
      : [`${l.config} (it holds the token) and the ${l.user} account stay, for a later install; uninstall --purge removes them.`]),
    REVOKE_NOTE,
  ];
  return { steps, config: l.config, logs: 'journalctl -u gp-agent', notes, starts: false };
}

function windowsPaths() {
  const w = path.win32;
  const { installDir, configDir } = WINDOWS_DEFAULTS;
  return {
    installDir,
    configDir,
    program: w.join(installDir, 'gp-agent.exe'),
    winsw: w.join(installDir, 'gp-agent-service.exe'),
    xml: w.join(installDir, 'gp-agent-service.xml'),
    config: w.join(configDir, 'gp-agent.conf'),
    logDir: w.join(configDir, 'logs'),
    stateDir: w.join(configDir, 'state'),
  };
}

/** Well-known SIDs, as icacls takes them (`*S-…`): the same on every language of Windows. */
const SID = {
  administrators: '*S-1-5-32-544',
  system: '*S-1-5-18',
  localService: '*S-1-5-19',
  networkService: '*S-1-5-20',
} as const;

/** The service account for icacls: a built-in account by its SID; another (a domain account) by the name given. */
function accountForAcl(account: string): string {
  if (/^NT AUTHORITY\\LOCAL ?SERVICE$/i.test(account)) return SID.localService;
  if (/^NT AUTHORITY\\NETWORK ?SERVICE$/i.test(account)) return SID.networkService;
  return account;
}

function windowsInstall(request: InstallRequest): Plan {
  const w = windowsPaths();
  const account = request.serviceAccount ?? WINDOWS_DEFAULTS.serviceAccount;
  const builtIn = /^NT AUTHORITY\\/i.test(account);
  if (!request.winsw && !request.inPlace)
    throw new Error(
      'WinSW is needed on Windows: put gp-agent-service.exe (from the release, beside gp-agent.exe) there, or pass --winsw <file>',
    );
  const setAccount: Step = {
    kind: 'run',
    command: 'sc.exe',
    args: ['config', 'gp-agent', 'obj=', account, 'password=', ''],
    why: `run the service as ${account}`,
  };
  const grantee = accountForAcl(account);
  const placed: Step[] = request.inPlace
    ? []
    : [
        { kind: 'mkdir', path: w.installDir, mode: 0o755 },
        { kind: 'copy', from: request.program, to: w.program, mode: 0o755 },
        { kind: 'copy', from: request.winsw!, to: w.winsw, mode: 0o755 },
      ];
  // WinSW's install sets the restarts after a crash from the service file; the MSI's ServiceInstall
  // cannot, so they are set here, or an MSI-installed agent that falls over would stay down.
  const recovery: Step = {
    kind: 'run',
    command: 'sc.exe',
    args: [
      'failure',
      'gp-agent',
      'reset=',
      String(WINDOWS_RECOVERY.resetAfterSeconds),
      'actions=',
      WINDOWS_RECOVERY.restartAfterSeconds.map((seconds) => `restart/${seconds * 1000}`).join('/'),
    ],
    why: 'Windows restarts the agent after a crash, as gp-agent-service.xml says (the MSI registered the service without it)',
  };
  const registered: Step[] = request.inPlace
    ? [recovery]
    : [
        { kind: 'write', path: w.xml, text: winswXml(w), mode: 0o644 },
        {
          kind: 'run',
          command: w.winsw,
          args: ['install'],
          why: 'register the service with the service control manager',
          undo: { command: w.winsw, args: ['uninstall'] },
        },
        // Built-in accounts have no password; another account's is set by a person (services.msc), never passed here.
        ...(builtIn ? [setAccount] : []),
      ];
  const steps: Step[] = [
    ...placed,
    { kind: 'mkdir', path: w.configDir, mode: 0o750 },
    // Locked before any secret is in it: if icacls fails, install stops (and undoes) with no token written.
    // Well-known SIDs, not names, which Windows translates (Administratoren, Système, …).
    {
      kind: 'run',
      command: 'icacls',
      args: [
        w.configDir,
        '/inheritance:r',
        '/grant:r',
        `${SID.administrators}:(OI)(CI)F`,
        `${SID.system}:(OI)(CI)F`,
        `${grantee}:(OI)(CI)RX`,
      ],
      why: 'the configuration will hold the token: administrators and the service account only, before it is written',
    },
    { kind: 'mkdir', path: w.logDir, mode: 0o750 },
    { kind: 'run', command: 'icacls', args: [w.logDir, '/grant', `${grantee}:(OI)(CI)M`], why: 'the service writes its logs here' },
    { kind: 'mkdir', path: w.stateDir, mode: 0o750 },
    {
      kind: 'run',
      command: 'icacls',
      args: [w.stateDir, '/grant', `${grantee}:(OI)(CI)M`],
      why: 'the service keeps what change detection knows here',
    },
    { kind: 'write', path: w.config, text: configFileText(request.settings), mode: 0o640, keep: true, secret: true },
    ...registered,
    { kind: 'diagnose', config: w.config },
    { kind: 'run', command: w.winsw, args: ['start'], why: 'start the agent' },
  ];
  const notes = builtIn
    ? []
    : [`Set the password of ${account} in services.msc (GP gateway agent > Log On), then start the service: ${w.winsw} start`];
  return { steps: builtIn ? steps : steps.slice(0, -1), config: w.config, logs: w.logDir, notes, starts: builtIn };
}

function windowsUninstall(request: UninstallRequest): Plan {
  const w = windowsPaths();
  const steps: Step[] = [
    {
      kind: 'run',
      command: w.winsw,
      args: ['stop'],
      why: 'stop the agent (it drains first)',
      okCodes: [1],
      tolerated: 'the service is not there',
    },
    { kind: 'run', command: w.winsw, args: ['uninstall'], why: 'remove the service', tolerated: 'the service is not there' },
    { kind: 'remove', path: w.xml },
    ...(request.purge ? [{ kind: 'remove' as const, path: w.configDir, tree: true }] : []),
  ];
  const notes = [
    request.purge
      ? `${w.installDir} holds the running program: delete it once this command has ended.`
      : `${w.config} (it holds the token), the logs and ${w.installDir} stay; uninstall --purge removes the configuration and logs.`,
    REVOKE_NOTE,
  ];
  return { steps, config: w.config, logs: w.logDir, notes, starts: false };
}
