// The GP-shaped demo: what the gateway, the agent's tests, e2e and bench use to build one. The
// SQL Server loader is a separate entry, @gp-gateway/gp-demo/mssql, so that generating a demo does
// not load the SQL Server driver.
export { DEMO_COMPANIES, demoAccountFramework, demoDatabasePaths, demoSchemaVersion, generateDemo } from './generator/generate.ts';
export type { GenerateOptions, GenerateProgress, GenerateResult } from './generator/generate.ts';
export { churn, type ChurnChange } from './churn/churn.ts';
