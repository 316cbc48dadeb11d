/**
 * The service definitions `gp-agent install` writes, as text: the systemd unit (Linux) and the
 * WinSW service file (Windows), both running the single-file program with its configuration file.
 * deploy/systemd/gp-agent.service and deploy/windows/gp-agent.xml are these files as installed by
 * default (e2e/deployFiles.test.ts keeps them equal), for IT that installs by hand.
 */

export interface LinuxLayout {
  /** The installed program, e.g. /opt/gp-agent/gp-agent. */
  program: string;
  /** Its folder, the service's working directory. */
  installDir: string;
  config: string;
  user: string;
}

export interface WindowsLayout {
  /** The installed program, e.g. C:\Program Files\gp-agent\gp-agent.exe. */
  program: string;
  installDir: string;
  config: string;
  logDir: string;
}

export const LINUX_DEFAULTS = {
  installDir: '/opt/gp-agent',
  configDir: '/etc/gp-agent',
  unit: '/etc/systemd/system/gp-agent.service',
  user: 'gp-agent',
} as const;

export const WINDOWS_DEFAULTS = {
  installDir: 'C:\\Program Files\\gp-agent',
  configDir: 'C:\\ProgramData\\gp-agent',
  serviceAccount: 'NT AUTHORITY\\LocalService',
} as const;

/**
 * Folders the unit's sandbox hides from the service (PrivateTmp= gives it an empty /tmp and /var/tmp,
 * ProtectHome= hides /home, /root and /run/user): a database folder there passes a check run by
 * root but is empty or missing for the service. Returns the hiding directive, or null.
 */
export function hiddenByUnit(folder: string): string | null {
  const under = (prefix: string) => folder === prefix || folder.startsWith(`${prefix}/`);
  if (['/tmp', '/var/tmp'].some(under)) return 'PrivateTmp=yes';
  if (['/home', '/root', '/run/user'].some(under)) return 'ProtectHome=yes';
  return null;
}

/** systemd unit of the agent. */
export function systemdUnit(layout: LinuxLayout): string {
  return `# systemd unit of the GP gateway agent, written by \`gp-agent install\` (see docs/operations.md, "Running
# the agent in production"). \`gp-agent uninstall\` removes it.
[Unit]
Description=GP gateway agent (answers the cloud gateway's reads from Dynamics GP; outbound HTTPS only)
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
User=${layout.user}
Group=${layout.user}
WorkingDirectory=${layout.installDir}
ExecStart=${layout.program} run --config ${layout.config}
# SIGTERM drains: the gateway sends new requests elsewhere, requests in flight get
# GP_AGENT_DRAIN_GRACE_MS (30 s); the stop timeout leaves room for that.
KillSignal=SIGTERM
KillMode=mixed
TimeoutStopSec=45
# Restart after a crash or a kill, never after a configuration error (exit 1) or a refused token
# or protocol version (exit 2): those need a person, and the journal says what to fix.
Restart=always
RestartSec=5
RestartPreventExitStatus=1 2
# Logs are JSON lines on standard output; journald stores and rotates them (SystemMaxUse= in
# journald.conf). For files instead, set GP_AGENT_LOG_FILE and install deploy/systemd/gp-agent.logrotate.
StandardOutput=journal
StandardError=journal
SyslogIdentifier=gp-agent
# The agent needs the network and its configuration; nothing else.
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectControlGroups=yes
LogsDirectory=gp-agent
LogsDirectoryMode=0750
# What change detection knows, kept across restarts (/var/lib/gp-agent; the agent finds it by $STATE_DIRECTORY).
StateDirectory=gp-agent
StateDirectoryMode=0750

[Install]
WantedBy=multi-user.target
`;
}

/**
 * What Windows does when the agent's process ends unasked (a crash, or exit 1 or 2): restart it after
 * 10 s, then 60 s, then 5 minutes, counting again after an hour. WinSW's `install` sets these from
 * the service file's <onfailure>; the MSI registers the service itself, so `install --in-place` sets
 * them with sc.exe (servicePlan.ts). One list for both.
 */
export const WINDOWS_RECOVERY = { restartAfterSeconds: [10, 60, 300], resetAfterSeconds: 3600 } as const;

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * WinSW service file (1.17, shipped in the release and the MSI as gp-agent-service.exe; build/winsw.ts). Windows services must answer the service control manager, which a
 * plain program does not: WinSW does that and runs the agent as its child.
 */
export function winswXml(layout: WindowsLayout): string {
  return `<!--
  Windows service of the GP gateway agent, written by \`gp-agent install\` (and shipped in the MSI) for WinSW 1.17
  (gp-agent-service.exe beside gp-agent.exe); see docs/operations.md, "Running the agent in production".

  Stopping the service sends Ctrl+C: the agent drains (new requests go to another agent of the
  connection, requests in flight get GP_AGENT_DRAIN_GRACE_MS, 30 s) and exits; stoptimeout leaves
  room for that before WinSW ends the process.
-->
<service>
  <id>gp-agent</id>
  <name>GP gateway agent</name>
  <description>Answers the GP gateway's read requests from Dynamics GP. Outbound HTTPS only. Support: gp-agent diagnose.</description>
  <executable>${xmlText(layout.program)}</executable>
  <arguments>run --config "${xmlText(layout.config)}"</arguments>
  <workingdirectory>${xmlText(layout.installDir)}</workingdirectory>
  <startmode>Automatic</startmode>
  <delayedAutoStart>true</delayedAutoStart>
  <stoptimeout>45 sec</stoptimeout>
  <!-- Restart after a crash; the delays grow so that a configuration error (exit 1) or a refused
       token (exit 2) does not loop fast. The log says what to fix. -->
${WINDOWS_RECOVERY.restartAfterSeconds.map((seconds) => `  <onfailure action="restart" delay="${seconds} sec"/>`).join('\n')}
  <resetfailure>${WINDOWS_RECOVERY.resetAfterSeconds / 3600} hour</resetfailure>
  <!-- Standard output (JSON lines) and error go to gp-agent-service.out.log and .err.log, rolled
       at 10 MB, the last 20 of each kept. -->
  <logpath>${xmlText(layout.logDir)}</logpath>
  <log mode="roll-by-size">
    <sizeThreshold>10240</sizeThreshold>
    <keepFiles>20</keepFiles>
  </log>
</service>
`;
}

export interface InstalledSettings {
  gatewayUrl: string;
  token: string;
  database: { kind: 'mssql'; connection: string } | { kind: 'sqlite'; dir: string };
}

/**
 * A value as the configuration file (util.parseEnv, and systemd's EnvironmentFile) reads it back:
 * in quotes when it holds a # (a comment otherwise) or spaces or quotes at its ends, single quotes
 * first because neither reader expands anything inside them.
 */
function fileValue(value: string): string {
  if (!/[#"'`]|^\s|\s$/.test(value)) return value;
  const quote = ["'", '"', '`'].find((q) => !value.includes(q));
  if (!quote) throw new Error('a setting holds every kind of quote (\' " `): the configuration file cannot hold it');
  return `${quote}${value}${quote}`;
}

/** The configuration file install writes: the settings given, and the others as comments. */
export function configFileText(settings: InstalledSettings): string {
  const database =
    settings.database.kind === 'mssql'
      ? `GP_MSSQL_CONNECTION = ${fileValue(settings.database.connection)}`
      : `GP_SQLITE_DIR = ${fileValue(settings.database.dir)}`;
  return `# gp-agent configuration, written by \`gp-agent install\`: one setting per line, NAME = value.
# It holds the agent token (and the SQL Server password): only administrators and the service
# account can read it. Every setting is listed in \`gp-agent run --help\` and in
# deploy/gp-agent.conf.example. Check a change with \`gp-agent diagnose --config <this file>\`, then
# restart the service.
GP_GATEWAY_URL = ${settings.gatewayUrl}
GP_AGENT_TOKEN = ${settings.token}
${database}
# GP_MSSQL_ISOLATION = read-committed
# LOG_LEVEL = info
`;
}
