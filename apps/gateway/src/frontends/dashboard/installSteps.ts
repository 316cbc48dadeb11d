/**
 * How to install an agent for a new connection, as the dashboard shows it with the gateway's
 * address filled in: the commands of docs/operations.md's "Running the agent in production", for the one-file
 * agent program (installSteps.test.ts holds them to that guide, so the two cannot drift apart). The
 * token is not put into a command line: the person saves it in a file that install reads.
 */
export interface InstallSteps {
  windows: string;
  linux: string;
}

export function installSteps(gatewayUrl: string): InstallSteps {
  return {
    windows: [
      '# Elevated PowerShell, in the folder holding gp-agent-win-x64.exe, WinSW-x64.exe and',
      '# agent.token (the token above, saved in that file):',
      '$env:GP_MSSQL_CONNECTION = "Server=<server>;Database=DYNAMICS;User Id=<login>;Password=<password>;Encrypt=true"',
      `.\\gp-agent-win-x64.exe install --gateway ${gatewayUrl} --token-file agent.token`,
      'Remove-Item agent.token',
    ].join('\n'),
    linux: [
      '# As root, in the folder holding gp-agent-linux-x64 and agent.token (the token above):',
      `GP_MSSQL_CONNECTION='Server=<server>;Database=DYNAMICS;User Id=<login>;Password=<password>;Encrypt=true' ./gp-agent-linux-x64 install --gateway ${gatewayUrl} --token-file agent.token`,
      'rm agent.token',
    ].join('\n'),
  };
}
