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
      '# Elevated PowerShell, in the folder holding gp-agent-win-x64.exe, gp-agent-service.exe and',
      '# agent.token (the token above, saved in that file); install asks for the SQL password:',
      `.\\gp-agent-win-x64.exe install --gateway ${gatewayUrl} --token-file agent.token \``,
      '  --mssql "Server=<server>;Database=DYNAMICS;User Id=<login>;Encrypt=true"',
      'Remove-Item agent.token',
    ].join('\n'),
    linux: [
      '# As root, in the folder holding gp-agent-linux-x64 and agent.token (the token above);',
      '# install asks for the SQL password:',
      `./gp-agent-linux-x64 install --gateway ${gatewayUrl} --token-file agent.token --mssql 'Server=<server>;Database=DYNAMICS;User Id=<login>;Encrypt=true'`,
      'rm agent.token',
    ].join('\n'),
  };
}
