/**
 * The architecture as rules `pnpm lint` checks on every test run (dependency-cruiser): no import
 * cycles anywhere, and each layer importing only what is below it. A rule that fails names the two
 * files; move the shared piece down rather than adding an exception.
 */
const gateway = '^apps/gateway/src/';
const agent = '^apps/agent/src/';

/** The rule `name`: the agent's folders `layers` (their tests excepted) import none of the folders `above`. */
const agentLayersBelow = (name, layers, above) => ({
  name,
  severity: 'error',
  from: { path: `${agent}(${layers})/`, pathNot: '\\.test\\.ts$' },
  to: { path: `${agent}(${above})/` },
});

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
      ...agentLayersBelow('agent-layers', 'sql|catalogue|db|service|writes|connection|diagnostics', 'cli'),
      comment:
        'The agent from the bottom up: sql (the neutral query model and its dialects) ▸ catalogue (what ' +
        'each API field and filter means in GP) ▸ db (executors) ▸ service (read operations) ▸ writes (write ' +
        'operations, which read back through the catalogue) ▸ connection (the WebSocket client) ▸ diagnostics ' +
        '(the checks of `gp-agent diagnose`) ▸ cli. A ' +
        'layer imports only layers below it; tests may reach further.',
    },
    agentLayersBelow('agent-sql-and-catalogue-below-execution', 'sql|catalogue', 'db|service|writes|connection|diagnostics'),
    agentLayersBelow('agent-sql-below-catalogue', 'sql', 'catalogue'),
    agentLayersBelow('agent-db-below-service', 'db', 'service|writes|connection|diagnostics'),
    agentLayersBelow('agent-service-below-writes', 'service', 'writes|connection|diagnostics'),
    agentLayersBelow('agent-connection-below-diagnostics', 'connection', 'diagnostics'),
    agentLayersBelow('agent-writes-below-connection', 'writes', 'connection|diagnostics'),
    {
      name: 'gateway-infrastructure-at-the-bottom',
      comment:
        "The gateway's infrastructure (the store, the cluster's clients, the data folder) knows nothing of what " +
        'runs on it: it imports no core, no front end and not the composition root; the error contract (errors/) ' +
        'is the one thing every layer shares.',
      severity: 'error',
      from: { path: `${gateway}infrastructure/`, pathNot: '\\.test\\.ts$' },
      to: { path: `${gateway}(core/|frontends/|gateway\\.ts$|index\\.ts$)` },
    },
    {
      name: 'gateway-core-without-front-ends',
      comment:
        'The core (admin, agents, auth, limits, reads, routing, usage, writes, the sandbox agent) serves every ' +
        'front end (REST, MCP, the dashboard, the CLI): it imports none of them, nor the composition root.',
      severity: 'error',
      from: { path: `${gateway}core/`, pathNot: '\\.test\\.ts$' },
      to: { path: `${gateway}(frontends/|gateway\\.ts$|index\\.ts$)` },
    },
    {
      name: 'gateway-front-ends-apart',
      comment: 'A front end reaches the others only through the core; the composition root (gateway.ts) mounts them side by side.',
      severity: 'error',
      from: { path: `${gateway}frontends/([^/]+)/`, pathNot: '\\.test\\.ts$' },
      to: { path: `${gateway}frontends/`, pathNot: `${gateway}frontends/$1/` },
    },
    {
      name: 'gateway-one-composition-root',
      comment: 'Only the process entry (the CLI), the package entry and test harnesses start a gateway.',
      severity: 'error',
      from: { path: '^apps/', pathNot: [`${gateway}frontends/cli/`, `${gateway}index\\.ts$`, `${gateway}testing/`, '\\.test\\.ts$'] },
      to: { path: `${gateway}gateway\\.ts$` },
    },
    {
      name: 'agents-below-reads',
      comment: 'Agent links and routers carry operations; what a read means is decided above them.',
      severity: 'error',
      from: { path: `${gateway}core/agents/` },
      to: { path: `${gateway}core/(reads|admin)/` },
    },
    {
      name: 'store-implementations-behind-the-interface',
      comment: 'Only the composition (openStore) and tests pick a store engine or reach its SQL; everything else sees Store.',
      severity: 'error',
      from: { path: '^(apps|e2e|bench)/', pathNot: [`${gateway}infrastructure/store/`, '\\.test\\.ts$', `${gateway}testing/`] },
      to: { path: `${gateway}infrastructure/store/(engines|sql)/` },
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
