import { CATALOGUE } from '../../catalogue/index.ts';
import { fieldColumns } from '../fieldColumns.ts';
import { alreadyExists } from '../refusals.ts';
import { exists, insert } from '../sqliteRows.ts';
import { preview, today, type WriteContext, type Written } from './context.ts';

/** Customers and vendors, as taUpdateCreateCustomerRcd and taUpdateCreateVendorRcd create them. */

export function writeCustomer({ db, body: input, checks, dry, read }: WriteContext): Written {
  const id = String(input.id);
  const body = { ...input };
  if (input.paymentTermsId !== undefined) body.paymentTermsId = checks.spelling('paymentTermsId');
  if (input.salespersonId !== undefined) body.salespersonId = checks.spelling('salespersonId');
  if (exists(db, 'RM00101', { CUSTNMBR: id })) throw alreadyExists('customers', `a customer ${id} already exists`);
  if (dry) return preview(id, body);
  const { creditLimit, ...rest } = body;
  const row = fieldColumns(CATALOGUE.customers, rest);
  // The credit limit is a type and an amount (catalogue/resources/customers.ts): 0 none, 2 an amount.
  row.CRLMTTYP = creditLimit === undefined ? 0 : 2;
  if (creditLimit !== undefined) row.CRLMTAMT = String(creditLimit);
  row.CREATDDT = today();
  row.MODIFDT = today();
  insert(db, 'RM00101', row);
  insert(db, 'RM00103', { CUSTNMBR: id });
  return { id, readBack: () => read.one(CATALOGUE.customers, [id]) };
}

export function writeVendor({ db, body: input, checks, dry, read }: WriteContext): Written {
  const id = String(input.id);
  const body = { ...input };
  if (input.paymentTermsId !== undefined) body.paymentTermsId = checks.spelling('paymentTermsId');
  if (exists(db, 'PM00200', { VENDORID: id })) throw alreadyExists('vendors', `a vendor ${id} already exists`);
  const withDefaults = { status: 'active', ...body };
  if (dry) return preview(id, withDefaults);
  const row = fieldColumns(CATALOGUE.vendors, withDefaults);
  row.CREATDDT = today();
  row.MODIFDT = today();
  insert(db, 'PM00200', row);
  return { id, readBack: () => read.one(CATALOGUE.vendors, [id]) };
}

/** A customer's or a vendor's address (taCreateCustomerAddress, taCreateVendorAddress). */
export function writeAddress({ db, body, dry, read }: WriteContext, of: 'customer' | 'vendor'): Written {
  const object = of === 'customer' ? 'customer-addresses' : 'vendor-addresses';
  const [table, key, field] =
    of === 'customer' ? (['RM00102', 'CUSTNMBR', 'customerId'] as const) : (['PM00300', 'VENDORID', 'vendorId'] as const);
  const owner = String(body[field]);
  const code = String(body.code);
  if (exists(db, table, { [key]: owner, ADRSCODE: code })) throw alreadyExists(object, `the ${of} ${owner} already has an address ${code}`);
  if (dry) return preview(`${owner}:${code}`, body);
  insert(db, table, fieldColumns(CATALOGUE[object], body));
  return { id: `${owner}:${code}`, readBack: () => read.one(CATALOGUE[object], [owner, code]) };
}
