import type { NextFunction, Request, Response } from 'express';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { routeTemplate } from './routeTemplate.ts';

const tracer = trace.getTracer('gp-gateway');

/**
 * The server span of each HTTP request (docs/operations.md#traces), continuing the client's W3C
 * `traceparent` when it sent one; everything the request does (the store, NATS, the agent) runs
 * inside it. Named by the route's template, with the status and the error code; its trace id goes
 * on the access log line (`res.locals.traceId`) and back to the client as `traceresponse`.
 * Mounted only while tracing is on.
 */
export function requestTracing() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(req.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } }, parent);
    const { traceId, spanId, traceFlags } = span.spanContext();
    res.locals.traceId = traceId;
    res.setHeader('traceresponse', `00-${traceId}-${spanId}-0${traceFlags.toString(16)}`);
    res.once('close', () => {
      const template = routeTemplate(req);
      span.updateName(`${req.method} ${template}`);
      span.setAttribute('http.route', template);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (typeof res.locals.requestId === 'string') span.setAttribute('gp.request_id', res.locals.requestId);
      if (typeof res.locals.errorCode === 'string') span.setAttribute('error.type', res.locals.errorCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
