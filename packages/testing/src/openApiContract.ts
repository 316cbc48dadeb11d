import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * Checks answers against the OpenAPI document (docs/openapi.json, or what a gateway serves at
 * /v1/openapi.json): the route must be documented, the status documented for it, its required
 * headers present, and a JSON body valid against the schema of that status (JSON Schema 2020-12,
 * the dialect of OpenAPI 3.1). The unit tests of every documented route and the e2e reads use this
 * one checker, so the document cannot drift from what the gateway answers.
 */

type Json = Record<string, any>;

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

export class OpenApiContract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: { template: string; pattern: RegExp }[];

  constructor(private readonly document: Json) {
    // Literal paths before templated ones, so `/v1/openapi.json` is never taken for a template.
    this.routes = Object.keys(document.paths)
      .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      }));
  }

  /** The documented path template a concrete path (without its query) answers on, or null. */
  templateOf(path: string): string | null {
    const bare = path.split('?')[0]!;
    return this.routes.find((route) => route.pattern.test(bare))?.template ?? null;
  }

  private resolve(node: Json): Json {
    let current = node;
    while (current && typeof current.$ref === 'string') {
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce((at: Json, key: string) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], this.document);
    }
    return current;
  }

  private validator(key: string, schema: Json): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      // The components travel with each schema so that its `#/components/...` references resolve.
      validate = this.ajv.compile({ ...schema, components: this.document.components });
      this.validators.set(key, validate);
    }
    return validate;
  }

  /** What is wrong with an answer to `method path`; empty when it is what the document says. */
  problems(method: string, path: string, answer: Answer): string[] {
    const template = this.templateOf(path);
    if (!template) {
      // A path the document does not have is no route: the one right answer is 404 in the error envelope.
      const notFound = this.validator('undocumented 404', { $ref: '#/components/schemas/Error404' });
      if (answer.status === 404 && notFound(answer.body)) return [];
      return [`${method} ${path} → ${answer.status}: ${path} is not a documented path`];
    }
    const operation = this.document.paths[template][method.toLowerCase()];
    if (!operation) return [`${method} ${template} is not documented`];
    const documented = operation.responses[String(answer.status)] ?? operation.responses.default;
    if (!documented) {
      return [`${method} ${template} answered ${answer.status}, which is not documented (${Object.keys(operation.responses).join(', ')})`];
    }
    const response = this.resolve(documented);
    const problems: string[] = [];
    for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
      if (this.resolve(header).required && !answer.headers.has(name)) problems.push(`header ${name} is missing`);
    }
    const schema = response.content?.['application/json']?.schema;
    if (schema) {
      const validate = this.validator(`${method} ${template} ${answer.status}`, schema);
      if (!validate(answer.body)) {
        problems.push(...(validate.errors ?? []).slice(0, 5).map((e) => `body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`));
      }
    } else if (answer.body !== undefined && answer.body !== null && answer.body !== '') {
      problems.push(`${method} ${template} ${answer.status} documents no body, but one came`);
    }
    return problems.map((p) => `${method} ${path} → ${answer.status}: ${p}`);
  }

  /** Throws with every problem of an answer. */
  check(method: string, path: string, answer: Answer): void {
    const problems = this.problems(method, path, answer);
    if (problems.length) throw new Error(`the answer differs from the OpenAPI document:\n${problems.join('\n')}`);
  }
}
