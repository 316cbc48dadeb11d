import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';

export interface Tracing {
  /** Sends the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry traces, exported over OTLP/HTTP, when the standard OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set and OTEL_SDK_DISABLED is not `true`; otherwise nothing is
 * registered, every span the code starts is OpenTelemetry's no-op, and null is returned. The
 * exporter reads the other standard variables itself (OTEL_EXPORTER_OTLP_HEADERS, …);
 * OTEL_SERVICE_NAME overrides `serviceName`, OTEL_BSP_SCHEDULE_DELAY how often spans are sent (ms),
 * OTEL_TRACES_SAMPLER_ARG the share of new traces recorded (0 to 1; every one unless set): a trace
 * the caller's traceparent says is sampled is always continued, as `parentbased_traceidratio` does.
 * Process-wide: OpenTelemetry's API has one global tracer provider and context manager.
 */
export function startTracing(serviceName: string, attributes: Record<string, string> = {}, env = process.env): Tracing | null {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || env.OTEL_SDK_DISABLED === 'true') return null;
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  const ratio = env.OTEL_TRACES_SAMPLER_ARG ? Number(env.OTEL_TRACES_SAMPLER_ARG) : 1;
  if (!(ratio >= 0 && ratio <= 1)) throw new Error('OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (the share of traces recorded)');
  const provider = new BasicTracerProvider({
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) }),
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || serviceName, ...attributes }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter(), Number.isFinite(delay) && delay > 0 ? { scheduledDelayMillis: delay } : {}),
    ],
  });
  // The request's span follows its work through awaits (AsyncLocalStorage), so that the layers
  // below (routing, NATS, the agent link, the SQL) find it without it being passed down.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** The W3C `traceparent` of the active span, to carry it to another process; undefined when nothing is traced. */
export function currentTraceparent(active: Context = context.active()): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  return carrier.traceparent;
}

/** The context a received `traceparent` continues (the active one when there is none, or tracing is off). */
export function contextFrom(traceparent: string | undefined): Context {
  if (!traceparent) return context.active();
  return propagation.extract(context.active(), { traceparent });
}

/**
 * For pino's `mixin`: the active span's trace id on every log line written inside it, so that an
 * operator goes from a log line to its trace and back. Nothing while no span is recording.
 */
export function traceIdOfActiveSpan(): { traceId?: string } {
  const span = trace.getActiveSpan();
  if (!span || !span.isRecording()) return {};
  return { traceId: span.spanContext().traceId };
}

const tracer = trace.getTracer('@gp-gateway/telemetry');

export { SpanKind };

/**
 * Runs `work` in a span, a child of `parent` or else of the active span, and ends it when `work`
 * settles; a failure is recorded with its error code (`error.type`). `work` gets the span's W3C
 * traceparent to hand to the next process. While tracing is off the span is OpenTelemetry's no-op:
 * `work` runs at once with no traceparent, for the cost of a function call.
 */
export function inSpan<T>(
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  work: (traceparent: string | undefined) => Promise<T>,
  parent: Context = context.active(),
): Promise<T> {
  const span = tracer.startSpan(name, { kind, attributes }, parent);
  if (!span.isRecording()) return work(undefined);
  const active = trace.setSpan(parent, span);
  return context.with(active, async () => {
    try {
      return await work(currentTraceparent(active));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      span.setAttribute('error.type', typeof code === 'string' ? code : (error as Error).name);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}
