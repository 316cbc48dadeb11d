import { z } from 'zod';

/**
 * Wire formats of values (docs/api.md#value-formats). Money and quantities are decimal strings in plain notation,
 * never JSON numbers, so no client ever parses them through a float.
 */
export const DecimalStringSchema = z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal string such as "1250.00"');
export const DateOnlySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD');
/** ISO-8601 UTC with milliseconds, as DEX_ROW_TS is served: 2026-03-01T14:05:09.123Z */
export const UtcTimestampSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'a UTC timestamp');
/** `modifiedAt` is DEX_ROW_TS where the table has it, else the MODIFDT date. */
export const ModifiedAtSchema = z.union([UtcTimestampSchema, DateOnlySchema]);

export const NullableString = z.string().min(1).nullable();
export const NullableTimestamp = ModifiedAtSchema.nullable();
export const NullableDecimal = DecimalStringSchema.nullable();
export const NullableDate = DateOnlySchema.nullable();
export const NullableInt = z.number().int().nullable();
