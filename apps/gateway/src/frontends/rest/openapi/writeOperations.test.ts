import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WRITABLE_OBJECT_NAMES, writeBodySchema } from '@gp-gateway/protocol';
import { z } from 'zod';
import { writeOperations } from './writeOperations.ts';

test('a writable object with its body schema becomes POST /v1/{object} with Idempotency-Key, validateOnly, 201 and 409', () => {
  const body = z.object({ id: z.string().max(15), name: z.string().max(64) }).strict();
  const paths = writeOperations([{ object: 'customers', body, example: { id: 'NEW0001', name: 'New customer' } }]);
  const post = paths['/v1/customers']!.post as Record<string, any>;
  assert.deepEqual(post.security, [{ bearerKey: ['write'] }]);
  assert.deepEqual(
    post.parameters.map((p: Record<string, string>) => p.name ?? p.$ref),
    ['Idempotency-Key', 'validateOnly', '#/components/parameters/ConnectionId', '#/components/parameters/Company'],
  );
  const content = post.requestBody.content['application/json'];
  assert.deepEqual(content.schema.required, ['id', 'name']);
  assert.equal(content.schema.additionalProperties, false);
  assert.deepEqual(content.example, { id: 'NEW0001', name: 'New customer' });
  assert.equal(post.responses['201'].content['application/json'].schema.properties.data.$ref, '#/components/schemas/Customer');
  assert.match(post.responses['409'].description, /ALREADY_EXISTS.*IDEMPOTENCY_CONFLICT/s);
  assert.equal(post.responses['409'].content['application/json'].schema.$ref, '#/components/schemas/Error409');
  assert.ok(post.responses['201'].headers['Idempotent-Replayed'], 'a replay is marked');
  assert.ok(post.responses['200'], 'validate-only answers 200');
  const entries = writeOperations([{ object: 'gl-entries', body, example: {} }]);
  const created = (entries['/v1/gl-entries']!.post as Record<string, any>).responses['201'].content['application/json'].schema;
  assert.deepEqual(created.properties.data.items, { $ref: '#/components/schemas/GlEntry' }, 'a journal entry answers its lines');
  assert.throws(() => writeOperations([{ object: 'nothing', body, example: {} }]), /no object named nothing/);
});

test("every write body schema of the protocol converts to the document's JSON Schema", () => {
  const paths = writeOperations(WRITABLE_OBJECT_NAMES.map((object) => ({ object, body: writeBodySchema(object), example: {} })));
  for (const object of WRITABLE_OBJECT_NAMES) {
    const schema = (paths[`/v1/${object}`]!.post as Record<string, any>).requestBody.content['application/json'].schema;
    assert.equal(schema.type, 'object', object);
    assert.ok(Object.keys(schema.properties).length > 0, object);
  }
});
