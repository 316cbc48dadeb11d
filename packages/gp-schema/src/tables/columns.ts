/** Column runs that tables of more than one GP module share. */
import { char } from '../gpTable.ts';

export const addressLines = [char('ADDRESS1', 61), char('ADDRESS2', 61), char('ADDRESS3', 61)];
/**
 * The address of vendor (PM00200, PM00300) and site (IV40700) tables, in PM00200's order: ZIPCODE,
 * then COUNTRY (customer tables spell it ZIP and put COUNTRY before CITY).
 */
export const vendorAddress = [...addressLines, char('CITY', 35), char('STATE', 29), char('ZIPCODE', 11), char('COUNTRY', 61)];
/** The ship-to address of SOP and POP document headers: ZIPCODE, then the country code (CCode) and COUNTRY. */
export const shipToAddress = [
  ...addressLines,
  char('CITY', 35),
  char('STATE', 29),
  char('ZIPCODE', 11),
  char('CCode', 7),
  char('COUNTRY', 61),
];
