/**
 * What the diagnostics are told of the agent's configuration: the CLI's settings (cli/runConfig.ts)
 * fit these shapes, so the checks run without the CLI and tests build them by hand.
 */
export type DiagnosedDatabase = { kind: 'sqlite'; dir: string } | { kind: 'mssql'; isolation: string };

export interface DiagnosedGateway {
  gatewayUrl: string;
  token: string;
}
