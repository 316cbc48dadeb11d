export { startMetricsServer, type MetricsServer } from './metricsServer.ts';
export { contextFrom, currentTraceparent, inSpan, SpanKind, startTracing, traceIdOfActiveSpan, type Tracing } from './tracing.ts';
