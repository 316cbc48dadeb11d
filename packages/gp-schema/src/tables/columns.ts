/** Column runs that tables of more than one GP module share. */
import { char } from '../gpTable.ts';

export const addressLines = [char('ADDRESS1', 61), char('ADDRESS2', 61), char('ADDRESS3', 61)];
/** Vendor-side address block (PM00200 order): vendor, SOP header and site tables spell ZIPCODE/PHNUMBR1/FAXNUMBR. */
export const vendorAddress = [...addressLines, char('CITY', 35), char('STATE', 29), char('ZIPCODE', 11), char('COUNTRY', 61)];
