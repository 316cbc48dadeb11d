/**
 * How to install an agent for a new connection, as the dashboard shows it with the connection's
 * token filled in. The commands are the ones the deploy/ files document (installSteps.test.ts holds
 * them to those files, so the two cannot drift apart).
 */
export interface InstallSteps {
  windows: string;
  linux: string;
}

export function installSteps(gatewayUrl: string, agentToken: string): InstallSteps {
  return {
    windows: [
      'copy WinSW-x64.exe deploy\\windows\\gp-agent.exe',
      `.\\deploy\\windows\\install.ps1 -GatewayUrl ${gatewayUrl} -Token ${agentToken} \``,
      '    -MssqlConnection "Server=<server>;Database=DYNAMICS;User Id=<login>;Password=<password>;Encrypt=true"',
    ].join('\n'),
    linux: [
      'useradd --system --home-dir /opt/gp-agent --shell /usr/sbin/nologin gp-agent',
      'install -d -m 0750 -o root -g gp-agent /etc/gp-agent',
      'install -m 0640 -o root -g gp-agent deploy/gp-agent.conf.example /etc/gp-agent/gp-agent.conf',
      `# in /etc/gp-agent/gp-agent.conf: GP_GATEWAY_URL = ${gatewayUrl}`,
      `#                                GP_AGENT_TOKEN = ${agentToken}`,
      '#                                GP_MSSQL_CONNECTION = Server=<server>;Database=DYNAMICS;User Id=<login>;Password=<password>;Encrypt=true',
      'install -m 0644 deploy/systemd/gp-agent.service /etc/systemd/system/gp-agent.service',
      'systemctl daemon-reload && systemctl enable --now gp-agent',
    ].join('\n'),
  };
}
