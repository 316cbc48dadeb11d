/**
 * What GP's eConnect procedures reach in the system database (DYNAMICS, or GP_SYSTEM_DATABASE) on
 * the way of the agent's writes. Ownership chaining does not cross databases, so a procedure of the
 * company database that reads a system table or executes a system procedure needs the login's own
 * SELECT or EXECUTE there; without it GP's procedure fails with error 229 for every customer
 * (tasmGetNextNoteIndex) or every payables invoice (smGetConstantInt). Nested procedures of the
 * system database reach its own tables through chaining, so those need nothing.
 *
 * The list was read from GP 2015's procedure bodies (Trackrabbit/TheLearningExperience,
 * TLECO/Stored Procedures/dbo.<name>.sql, each one line 5), following every procedure the writes'
 * entry points execute; docs/decisions.md#what-econnect-reaches-in-the-system-database cites them.
 * `optional` objects belong to Analytical Accounting, which exists only where it is installed: the
 * procedures look for AAG00102 in sysobjects first, so their grant is made only when they exist.
 */
export interface SystemObject {
  name: string;
  permission: 'EXECUTE' | 'SELECT';
  /** The eConnect procedures of the company database that reach it (GP 2015). */
  reachedBy: readonly string[];
  optional?: true;
}

export const ECONNECT_SYSTEM_OBJECTS: readonly SystemObject[] = [
  {
    name: 'tasmGetNextNoteIndex',
    permission: 'EXECUTE',
    reachedBy: [
      'taUpdateCreateCustomerRcd',
      'taUpdateCreateVendorRcd',
      'taCreateShippingMethod',
      'taSopHdrIvcInsert',
      'taRMTransaction',
      'taPMTransactionInsert',
      'taGLTransactionHeaderInsert',
      'taCreateUpdateBatchHeaderRcd',
    ],
  },
  { name: 'smGetNextNoteIndex', permission: 'EXECUTE', reachedBy: ['aagSubAssignUpdate', 'taGLAssignUpdate'] },
  { name: 'taDEXLOCKS', permission: 'EXECUTE', reachedBy: ['taSopLineIvcInsert', 'taSopHdrRecalc', 'taSopLineDelete'] },
  { name: 'smGetConstantInt', permission: 'EXECUTE', reachedBy: ['taGetPMNextVoucherNumber'] },
  { name: 'smGetMsgString', permission: 'EXECUTE', reachedBy: ['taGetPMNextVoucherNumber'] },
  { name: 'aagGetNextID', permission: 'EXECUTE', reachedBy: ['aagSubWorkHdrUpdate', 'aagGLWorkHdrUpdate'], optional: true },
  {
    name: 'SY01500',
    permission: 'SELECT',
    reachedBy: [
      'taUpdateCreateCustomerRcd',
      'taUpdateCreateVendorRcd',
      'taSopLineIvcInsert',
      'taSopHdrIvcInsert',
      'taSopLineIvcTaxInsert',
      'taRMTransaction',
      'taPMTransactionInsert',
      'taGLTransactionLineInsert',
      'taGLTransactionHeaderInsert',
      'taCreateUpdateBatchHeaderRcd',
    ],
  },
  { name: 'SY00800', permission: 'SELECT', reachedBy: ['taCreateUpdateBatchHeaderRcd'] },
  { name: 'SY01400', permission: 'SELECT', reachedBy: ['taCreateUpdateBatchHeaderRcd'] },
  { name: 'SY05400', permission: 'SELECT', reachedBy: ['taUpdateCreateCustomerRcd', 'taUpdateCreateVendorRcd'] },
  { name: 'SY05501', permission: 'SELECT', reachedBy: ['taSopLineIvcInsert'] },
  {
    name: 'MC40200',
    permission: 'SELECT',
    reachedBy: [
      'taUpdateCreateCustomerRcd',
      'taUpdateCreateVendorRcd',
      'taSopLineIvcInsert',
      'taSopHdrIvcInsert',
      'taRMTransaction',
      'taPMTransactionInsert',
      'taGLTransactionLineInsert',
      'taGLTransactionHeaderInsert',
      'taMCCurrencyValidate',
    ],
  },
  { name: 'MC60100', permission: 'SELECT', reachedBy: ['taUpdateCreateCustomerRcd', 'taUpdateCreateVendorRcd', 'taMCCurrencyValidate'] },
  { name: 'MC00100', permission: 'SELECT', reachedBy: ['taMCCurrencyValidate', 'taMCExchangeRate'] },
  { name: 'MC40300', permission: 'SELECT', reachedBy: ['taMCCurrencyValidate', 'taMCExchangeRate'] },
  {
    name: 'AAG00102',
    permission: 'SELECT',
    reachedBy: ['taCreateSOPDistributions', 'taRMDistributionCreate', 'taPMDistributionCreate', 'taGLTransactionHeaderInsert'],
    optional: true,
  },
];

/** The agent's own reads in the system database on the write path: GP's error texts. */
export const WRITER_SYSTEM_READS: readonly SystemObject[] = [
  { name: 'taErrorCode', permission: 'SELECT', reachedBy: ['the agent: GP error codes into words (mssqlWriter.ts)'] },
];
