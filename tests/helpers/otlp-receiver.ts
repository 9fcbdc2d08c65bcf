/**
 * A real OTLP/HTTP receiver on 127.0.0.1 for tests: a `node:http` server that
 * takes `POST /v1/traces` and `POST /v1/metrics` as OTLP JSON (the encoding of
 * `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`), decodes the spans and metric
 * points, and answers as a collector does. Anything else — another path, a
 * protobuf body, JSON it cannot read — gets a 4xx and is kept in `rejected`,
 * so a test sees it instead of a silent drop.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** An OTLP attribute value, decoded. */
export type AttributeValue = string | number | boolean | null | AttributeValue[];

/** One span as exported. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Absent for a root span. */
  readonly parentSpanId?: string;
  readonly name: string;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  readonly statusMessage?: string;
  readonly durationNs: bigint;
  readonly scope: string;
  readonly resource: Readonly<Record<string, AttributeValue>>;
}

/** One metric data point as exported (sums: `value`; histograms: `count`, `sum`, buckets). */
export interface ReceivedPoint {
  readonly metric: string;
  readonly unit: string;
  readonly type: 'sum' | 'gauge' | 'histogram';
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  readonly value?: number;
  readonly count?: number;
  readonly sum?: number;
  readonly bucketCounts?: readonly number[];
  readonly explicitBounds?: readonly number[];
  readonly resource: Readonly<Record<string, AttributeValue>>;
}

export interface OtlpReceiver {
  /** The base URL, for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** Every point of every export request, in arrival order (cumulative sums repeat across requests). */
  readonly points: ReceivedPoint[];
  /** Requests refused, with why. */
  readonly rejected: { readonly path: string; readonly contentType: string; readonly why: string }[];
  close(): Promise<void>;
}

interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}
interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
}

function decodeValue(value: OtlpAnyValue | undefined): AttributeValue {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(decodeValue);
  return null;
}

function decodeAttributes(list: readonly OtlpKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, decodeValue(kv.value)]));
}

const num = (value: number | string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

interface TracesRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: OtlpKeyValue[];
        status?: { code?: number; message?: string };
        startTimeUnixNano: string | number;
        endTimeUnixNano: string | number;
      }[];
    }[];
  }[];
}

interface OtlpPoint {
  attributes?: OtlpKeyValue[];
  asInt?: number | string;
  asDouble?: number;
  count?: number | string;
  sum?: number;
  bucketCounts?: (number | string)[];
  explicitBounds?: number[];
}
interface MetricsRequest {
  resourceMetrics?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeMetrics?: {
      metrics?: {
        name: string;
        unit?: string;
        sum?: { dataPoints?: OtlpPoint[] };
        gauge?: { dataPoints?: OtlpPoint[] };
        histogram?: { dataPoints?: OtlpPoint[] };
      }[];
    }[];
  }[];
}

function decodeSpans(body: TracesRequest): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of body.resourceSpans ?? []) {
    const resource = decodeAttributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        out.push({
          traceId: span.traceId,
          spanId: span.spanId,
          ...(span.parentSpanId !== undefined && span.parentSpanId !== '' && { parentSpanId: span.parentSpanId }),
          name: span.name,
          attributes: decodeAttributes(span.attributes),
          statusCode: span.status?.code ?? 0,
          ...(span.status?.message !== undefined && { statusMessage: span.status.message }),
          durationNs: BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano),
          scope: scopeSpans.scope?.name ?? '',
          resource,
        });
      }
    }
  }
  return out;
}

function decodePoints(body: MetricsRequest): ReceivedPoint[] {
  const out: ReceivedPoint[] = [];
  for (const resourceMetrics of body.resourceMetrics ?? []) {
    const resource = decodeAttributes(resourceMetrics.resource?.attributes);
    for (const scopeMetrics of resourceMetrics.scopeMetrics ?? []) {
      for (const metric of scopeMetrics.metrics ?? []) {
        const type = metric.histogram !== undefined ? 'histogram' : metric.sum !== undefined ? 'sum' : 'gauge';
        const data = metric.histogram ?? metric.sum ?? metric.gauge;
        for (const point of data?.dataPoints ?? []) {
          const value = num(point.asInt) ?? point.asDouble;
          const count = num(point.count);
          out.push({
            metric: metric.name,
            unit: metric.unit ?? '',
            type,
            attributes: decodeAttributes(point.attributes),
            ...(value !== undefined && { value }),
            ...(count !== undefined && { count }),
            ...(point.sum !== undefined && { sum: point.sum }),
            ...(point.bucketCounts !== undefined && { bucketCounts: point.bucketCounts.map(Number) }),
            ...(point.explicitBounds !== undefined && { explicitBounds: point.explicitBounds }),
            resource,
          });
        }
      }
    }
  }
  return out;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
}

/** Starts the receiver on an ephemeral loopback port. Close it in `finally`/`afterAll`. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const points: ReceivedPoint[] = [];
  const rejected: OtlpReceiver['rejected'][number][] = [];

  const refuse = (response: ServerResponse, status: number, path: string, contentType: string, why: string): void => {
    rejected.push({ path, contentType, why });
    response.writeHead(status, { 'content-type': 'text/plain' }).end(why);
  };

  const server = createServer((request, response) => {
    const path = request.url ?? '';
    const contentType = request.headers['content-type'] ?? '';
    void (async () => {
      const body = await readBody(request);
      if (request.method !== 'POST' || (path !== '/v1/traces' && path !== '/v1/metrics')) {
        return refuse(response, 404, path, contentType, `no OTLP endpoint at ${request.method} ${path}`);
      }
      if (!contentType.startsWith('application/json')) return refuse(response, 415, path, contentType, 'this receiver reads OTLP JSON only');
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch (error) {
        return refuse(response, 400, path, contentType, `not JSON: ${(error as Error).message}`);
      }
      if (path === '/v1/traces') spans.push(...decodeSpans(parsed as TracesRequest));
      else points.push(...decodePoints(parsed as MetricsRequest));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    })().catch((error: unknown) => refuse(response, 500, path, contentType, String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    points,
    rejected,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
