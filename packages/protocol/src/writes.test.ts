import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OBJECTS } from './objects.ts';
import { checkWriteBody } from './writeBody.ts';
import { MAX_WRITE_AMOUNT, WRITABLE_OBJECT_NAMES, WRITES } from './writes.ts';

test('every writable object is a catalogue object, and every write field is a field of its resource', () => {
  for (const name of WRITABLE_OBJECT_NAMES) {
    const resourceFields = Object.keys(OBJECTS[name].resource.shape);
    for (const field of Object.keys(WRITES[name].fields)) assert.ok(resourceFields.includes(field), `${name}.${field}`);
  }
  const lines = {
    'sales-orders': 'sales-order-lines',
    'gl-entries': 'gl-entries',
    'ar-invoices': 'ar-invoice-distributions',
    'ap-invoices': 'ap-invoice-distributions',
  } as const;
  for (const [name, linesOf] of Object.entries(lines)) {
    const resourceFields = Object.keys(OBJECTS[linesOf].resource.shape);
    for (const field of Object.keys(WRITES[name as keyof typeof lines].lines.fields))
      assert.ok(resourceFields.includes(field), `${name} line ${field}`);
  }
});

test('a valid customer: ids are trimmed and upper-cased as eConnect does, text is kept', () => {
  const check = checkWriteBody('customers', { id: ' acme0001 ', name: 'Acme Inc.', creditLimit: '2500.00', inactive: false });
  assert.deepEqual(check, { ok: true, body: { id: 'ACME0001', name: 'Acme Inc.', creditLimit: '2500.00', inactive: false } });
});

test('every problem of a body is reported with its path: unknown fields, lengths, required fields, decimals', () => {
  const check = checkWriteBody('customers', { id: 'X'.repeat(16), creditLimit: '12.345678', color: 'red', phone: 'a\nb' });
  assert.equal(check.ok, false);
  const issues = check.ok ? [] : check.issues;
  assert.deepEqual(issues.map((i) => i.path).sort(), ['body', 'creditLimit', 'id', 'name', 'phone'].sort(), JSON.stringify(issues));
  assert.match(issues.find((i) => i.path === 'body')!.message, /unknown field: color/);
  assert.match(issues.find((i) => i.path === 'id')!.message, /at most 15 characters/);
  assert.match(issues.find((i) => i.path === 'creditLimit')!.message, /5 after it/);
});

test('a tax amount is refused with the reason, since GP takes one only with tax detail lines', () => {
  for (const [object, body] of [
    ['ar-invoices', { customerId: 'C', date: '2026-03-01', salesAmount: '100', batchId: 'API' }],
    ['ap-invoices', { vendorId: 'V', vendorDocumentNumber: 'D1', date: '2026-03-01', purchasesAmount: '100', batchId: 'API' }],
    [
      'sales-orders',
      { docTypeId: 'STDORD', customerId: 'C', date: '2026-03-01', batchId: 'API', lines: [{ itemId: 'I', quantity: '1', unitPrice: '1' }] },
    ],
  ] as const) {
    assert.equal(checkWriteBody(object, body).ok, true, object);
    const check = checkWriteBody(object, { ...body, taxAmount: '8', color: 'red' });
    assert.equal(check.ok, false);
    const issues = check.ok ? [] : check.issues;
    assert.match(issues.find((i) => i.path === 'taxAmount')!.message, /tax detail lines/, object);
    assert.match(issues.find((i) => i.path === 'body')!.message, /^unknown field: color$/, 'other unknown fields are still named');
  }
});

test('money is a non-negative decimal string, never a JSON number', () => {
  assert.equal(checkWriteBody('customers', { id: 'A', name: 'A', creditLimit: 100 }).ok, false);
  assert.equal(checkWriteBody('customers', { id: 'A', name: 'A', creditLimit: '-1.00' }).ok, false);
  assert.equal(checkWriteBody('customers', { id: 'A', name: 'A', creditLimit: '0' }).ok, true);
});

test('dates are calendar dates after GP’s empty date', () => {
  const order = (date: string) => ({
    docTypeId: 'STDORD',
    customerId: 'AARONFIT0001',
    date,
    batchId: 'API',
    lines: [{ itemId: '100XLG', quantity: '1', unitPrice: '10.00' }],
  });
  assert.equal(checkWriteBody('sales-orders', order('2026-02-30')).ok, false);
  assert.equal(checkWriteBody('sales-orders', order('1900-01-01')).ok, false);
  const ok = checkWriteBody('sales-orders', order('2026-02-28'));
  assert.ok(ok.ok);
  assert.equal(ok.body.type, undefined, 'the default type is applied by the writer, not invented in the body');
});

test('a sales order needs a line with a positive quantity', () => {
  const base = { docTypeId: 'STDORD', customerId: 'C', date: '2026-03-01', batchId: 'API' };
  assert.equal(checkWriteBody('sales-orders', { ...base, lines: [] }).ok, false);
  const zero = checkWriteBody('sales-orders', { ...base, lines: [{ itemId: 'I', quantity: '0', unitPrice: '1' }] });
  assert.deepEqual(zero.ok ? [] : zero.issues.map((i) => i.path), ['lines.0.quantity']);
});

test('a 1099 amount is at most the purchases amount and never negative, as taPMTransactionInsert checks (714, 5631)', () => {
  const body = { vendorId: 'V', vendorDocumentNumber: 'D1', date: '2026-03-01', purchasesAmount: '100', batchId: 'API' };
  assert.equal(checkWriteBody('ap-invoices', { ...body, ten99Amount: '100' }).ok, true, 'all of it');
  assert.equal(checkWriteBody('ap-invoices', { ...body, ten99Amount: '0' }).ok, true);
  const above = checkWriteBody('ap-invoices', { ...body, ten99Amount: '100.00001' });
  assert.deepEqual(above.ok ? [] : above.issues.map((i) => [i.path, /error 714/.test(i.message)]), [['ten99Amount', true]]);
  const negative = checkWriteBody('ap-invoices', { ...body, ten99Amount: '-1' });
  assert.deepEqual(negative.ok ? [] : negative.issues.map((i) => i.path), ['ten99Amount']);
});

test("a receivables or payables document's own distributions: optional, each a debit or a credit, a type GP takes, balanced to the document", () => {
  const ar = { customerId: 'C', date: '2026-03-01', salesAmount: '100', freightAmount: '20', batchId: 'API' };
  const recv = { type: 'receivables', accountNumber: '000-1200-00', debit: '120' };
  const sales = { type: 'sales', accountNumber: '000-4100-00', credit: '100' };
  const freight = { type: 'freight', accountNumber: '000-4500-00', credit: '20' };
  assert.equal(checkWriteBody('ar-invoices', ar).ok, true, "absent, GP's own");
  assert.equal(checkWriteBody('ar-invoices', { ...ar, lines: [recv, sales, freight] }).ok, true);
  const paths = (object: 'ar-invoices' | 'ap-invoices', body: Record<string, unknown>) => {
    const check = checkWriteBody(object, body);
    return check.ok ? [] : check.issues.map((i) => [i.path, i.message]);
  };
  assert.deepEqual(
    paths('ar-invoices', { ...ar, lines: [recv] }).map(([p]) => p),
    ['lines'],
    'at least two lines',
  );
  assert.match(
    paths('ar-invoices', { ...ar, lines: [{ ...recv, debit: '100' }, sales] })[0]![1]!,
    /total 100, not the document's amount 120/,
  );
  assert.match(paths('ar-invoices', { ...ar, lines: [{ ...recv, debit: '121' }, sales, freight] })[0]![1]!, /do not balance/);
  assert.deepEqual(
    paths('ar-invoices', { ...ar, lines: [{ ...recv, credit: '1' }, sales, freight] }).map(([p]) => p),
    ['lines.0'],
  );
  // A credit memo line on an invoice is GP's 1339.
  const wrongType = paths('ar-invoices', { ...ar, lines: [recv, { ...sales, type: 'creditMemo' }, freight] });
  assert.deepEqual(
    wrongType.map(([p]) => p),
    ['lines.1.type'],
  );
  assert.match(wrongType[0]![1]!, /error 1339/);
  assert.equal(
    checkWriteBody('ar-invoices', {
      ...ar,
      type: 'creditMemo',
      lines: [
        { ...recv, credit: '120', debit: undefined },
        { ...sales, type: 'creditMemo', debit: '100', credit: undefined },
        { ...freight, debit: '20', credit: undefined },
      ],
    }).ok,
    true,
  );
  const ap = { vendorId: 'V', vendorDocumentNumber: 'D1', date: '2026-03-01', purchasesAmount: '50', batchId: 'API' };
  const purch = { type: 'purchases', accountNumber: '000-5100-00', debit: '50' };
  const pay = { type: 'payables', accountNumber: '000-2100-00', credit: '50' };
  assert.equal(checkWriteBody('ap-invoices', { ...ap, lines: [purch, pay] }).ok, true);
  // 16 (round) is past taPMDistribution's 15 (error 770): not offered.
  assert.deepEqual(
    paths('ap-invoices', { ...ap, lines: [purch, { ...pay, type: 'round' }] }).map(([p]) => p),
    ['lines.1.type'],
  );
});

test('a journal entry balances, and each of its lines is a debit or a credit', () => {
  const entry = (lines: object[]) => ({ reference: 'Accrual', date: '2026-03-31', batchId: 'API', lines });
  const balanced = checkWriteBody(
    'gl-entries',
    entry([
      { accountNumber: '000-6100-00', debit: '100.10' },
      { accountNumber: '000-2100-00', credit: '60.05' },
      { accountNumber: '000-2100-00', credit: '40.05' },
    ]),
  );
  assert.ok(balanced.ok);
  const unbalanced = checkWriteBody(
    'gl-entries',
    entry([
      { accountNumber: '000-6100-00', debit: '100.00' },
      { accountNumber: '000-2100-00', credit: '99.99999' },
    ]),
  );
  assert.deepEqual(unbalanced.ok ? [] : unbalanced.issues, [
    { path: 'lines', message: 'the entry does not balance: debits and credits must be equal' },
  ]);
  const both = checkWriteBody(
    'gl-entries',
    entry([{ accountNumber: '000-6100-00', debit: '1', credit: '1' }, { accountNumber: '000-2100-00' }]),
  );
  assert.deepEqual(both.ok ? [] : both.issues.map((i) => i.path), ['lines.0', 'lines.1']);
});

test('a value that is not a decimal is an issue naming its field, never an exception (issue 32)', () => {
  for (const value of ['abc', ' 1.00', '١٢', '12 000', '1,5', '1e3', '', '.5']) {
    const customer = checkWriteBody('customers', { id: 'A', name: 'A', creditLimit: value });
    assert.deepEqual(customer.ok ? [] : customer.issues, [{ path: 'creditLimit', message: 'a decimal string such as "1250.00"' }], value);
    const order = checkWriteBody('sales-orders', {
      docTypeId: 'STDORD',
      customerId: 'C',
      date: '2026-03-01',
      batchId: 'API',
      lines: [{ itemId: 'I', quantity: value, unitPrice: '1' }],
    });
    assert.deepEqual(order.ok ? [] : order.issues.map((i) => i.path), ['lines.0.quantity'], value);
  }
});

test('amounts, extensions and totals stay within what every writer stores of numeric(19,5)', () => {
  const customer = (creditLimit: string) => checkWriteBody('customers', { id: 'A', name: 'A', creditLimit });
  assert.equal(customer(MAX_WRITE_AMOUNT).ok, true);
  for (const over of ['92233720368547.75808', '99999999999999.99999']) {
    const check = customer(over);
    assert.deepEqual(check.ok ? [] : check.issues.map((i) => i.path), ['creditLimit'], over);
  }
  const order = (lines: object[], freightAmount?: string) =>
    checkWriteBody('sales-orders', { docTypeId: 'STDORD', customerId: 'C', date: '2026-03-01', batchId: 'API', freightAmount, lines });
  const huge = order([{ itemId: 'I', quantity: '99999999999999', unitPrice: '99999999999999' }]);
  assert.deepEqual(huge.ok ? [] : huge.issues.map((i) => i.path), ['lines.0.quantity', 'lines.0.unitPrice']);
  const extension = order([{ itemId: 'I', quantity: '9000000000000', unitPrice: '9000000000000' }]);
  assert.deepEqual(extension.ok ? [] : extension.issues.map((i) => i.path), ['lines.0']);
  const total = order(
    [
      { itemId: 'I', quantity: '1', unitPrice: '60000000000000' },
      { itemId: 'I', quantity: '1', unitPrice: '60000000000000' },
    ],
    '1',
  );
  assert.deepEqual(total.ok ? [] : total.issues.map((i) => i.path), ['lines']);
  const invoice = checkWriteBody('ar-invoices', {
    customerId: 'C',
    date: '2026-03-01',
    batchId: 'API',
    salesAmount: '60000000000000',
    freightAmount: '60000000000000',
  });
  assert.deepEqual(invoice.ok ? [] : invoice.issues.map((i) => i.path), ['salesAmount']);
  const entry = checkWriteBody('gl-entries', {
    reference: 'R',
    date: '2026-03-31',
    batchId: 'API',
    lines: [
      { accountNumber: 'A', debit: '60000000000000' },
      { accountNumber: 'A', debit: '60000000000000' },
      { accountNumber: 'B', credit: '60000000000000' },
      { accountNumber: 'B', credit: '60000000000000' },
    ],
  });
  assert.deepEqual(entry.ok ? [] : entry.issues.map((i) => i.path), ['lines']);
});

test('a field named like a property of every object is an unknown field like any other', () => {
  for (const name of ['toString', 'valueOf', '__proto__', 'constructor', 'hasOwnProperty']) {
    const check = checkWriteBody('customers', JSON.parse(`{"id":"A","name":"A","${name}":"x"}`));
    assert.deepEqual(check.ok ? [] : check.issues, [{ path: 'body', message: `unknown field: ${name}` }], name);
  }
});

test('ids and text that look alike are not silently different: hidden characters are refused, visible ones kept', () => {
  for (const hidden of ['\u0000', '\u00a0', '\u0085', '\u200b', '\u202e', '\u2066', '\ufeff', '\u00ad', '\u2028', '\ud800']) {
    const check = checkWriteBody('customers', { id: `ASECRET01${hidden}`, name: `Acme${hidden}` });
    const refused = hidden === '\u00a0' ? ['id'] : ['id', 'name'];
    assert.deepEqual(check.ok ? [] : check.issues.map((i) => i.path), refused, JSON.stringify(hidden));
  }
  const nbsp = checkWriteBody('customers', { id: 'A\u00a0B', name: 'Société\u00a0X' });
  assert.deepEqual(nbsp.ok ? [] : nbsp.issues, [
    { path: 'id', message: 'must not contain spaces other than the ASCII space: U+00A0 at position 2' },
  ]);
  assert.equal(checkWriteBody('customers', { id: 'NET 30', name: 'Ärzte & Söhne 𝓤 ｆｕｌｌ' }).ok, true);
});
