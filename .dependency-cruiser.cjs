/**
 * The architecture as rules `pnpm lint` checks on every test run (dependency-cruiser): no import
 * cycles anywhere, and each layer importing only what is below it. A rule that fails names the two
 * files; move the shared piece down rather than adding an exception.
 */
const gateway = '^apps/gateway/src/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'A cycle makes two modules one: neither can be read, tested or replaced alone.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'packages-below-apps',
      comment: 'packages/ are shared by the apps, so they import no app.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'agent-without-gateway',
      comment: "The agent runs on the customer's server: nothing of the gateway goes there.",
      severity: 'error',
      from: { path: '^apps/agent/' },
      to: { path: '^apps/gateway/' },
    },
    {
      name: 'agent-layers',
      comment:
        'The agent from the bottom up: sql (the neutral query model and its dialects) ▸ catalogue (what ' +
        'each API field and filter means in GP) ▸ db (executors) ▸ service (read operations) ▸ writes (write ' +
        'operations, which read back through the catalogue) ▸ connection (the WebSocket client) ▸ cli. A ' +
        'layer imports only layers below it; tests may reach further.',
      severity: 'error',
      from: { path: '^apps/agent/src/(sql|catalogue|db|service|writes|connection)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/agent/src/cli/' },
    },
    {
      name: 'agent-sql-and-catalogue-below-execution',
      severity: 'error',
      from: { path: '^apps/agent/src/(sql|catalogue)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/agent/src/(db|service|writes|connection)/' },
    },
    {
      name: 'agent-sql-below-catalogue',
      severity: 'error',
      from: { path: '^apps/agent/src/sql/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/agent/src/catalogue/' },
    },
    {
      name: 'agent-db-below-service',
      severity: 'error',
      from: { path: '^apps/agent/src/db/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/agent/src/(service|writes|connection)/' },
    },
    {
      name: 'agent-service-below-writes',
      severity: 'error',
      from: { path: '^apps/agent/src/service/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/agent/src/(writes|connection)/' },
    },
    {
      name: 'agent-writes-below-connection',
      severity: 'error',
      from: { path: '^apps/agent/src/writes/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/agent/src/connection/' },
    },
    {
      name: 'gateway-core-without-front-ends',
      comment:
        'Routing, reads, agents, limits, the store, the admin service and errors serve every front end ' +
        '(REST, MCP, the CLI, the dashboard): none of them imports a front end.',
      severity: 'error',
      from: { path: `${gateway}(admin|agents|errors|limits|reads|routing|store|writes)/` },
      to: { path: `${gateway}(http|mcp|cli|sandbox)/` },
    },
    {
      name: 'agents-below-reads',
      comment: 'Agent links and routers carry operations; what a read means is decided above them.',
      severity: 'error',
      from: { path: `${gateway}agents/` },
      to: { path: `${gateway}(reads|admin)/` },
    },
    {
      name: 'store-implementations-behind-the-interface',
      comment: 'Only the composition (openStore) and tests pick a store engine or reach its SQL; everything else sees Store.',
      severity: 'error',
      from: { path: '^(apps|e2e|bench)/', pathNot: [`${gateway}store/`, '\\.test\\.ts$', `${gateway}testing/`] },
      to: { path: `${gateway}store/(engines|sql)/` },
    },
    {
      name: 'harnesses-through-package-entries',
      comment:
        'e2e tests and the bench reach the gateway through its package entries (src/index.ts, and src/testing/index.ts ' +
        'for the harnesses that need its insides), not its insides.',
      severity: 'error',
      from: { path: '^(e2e|bench)/' },
      to: { path: `${gateway}`, pathNot: `${gateway}(testing/)?index\\.ts$` },
    },
    {
      name: 'no-harnesses-in-production',
      comment: "Test harnesses (packages/testing, the gateway's testing/) serve tests and the bench; production code never imports them.",
      severity: 'error',
      from: { path: '^(apps|packages)/', pathNot: ['\\.test\\.ts$', '^packages/testing/', `${gateway}testing/`] },
      to: { path: ['^packages/testing/', `${gateway}testing/`] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|^bench/\\.|^data/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'default'],
      extensions: ['.ts', '.mjs', '.js', '.json'],
    },
  },
};
