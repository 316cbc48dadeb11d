-- ap-invoices: the eConnect calls of one write (writes/mssql/econnect.ts); parameters bound as typed below.

-- references
-- @p0 varchar(15) = "ACETRAVE0001"
-- @p1 varchar(15) = "ACETRAVE0001"
-- @p2 varchar(129) = "000-5100-00"
-- @p3 varchar(129) = "000-2100-00"
-- @p4 varchar(15) = "API-PM"
-- @p5 varchar(15) = "PM_Trxent"
SELECT TOP (1) [t].[CURNCYID] AS [CURNCYID], [t].[PYMTRMID] AS [PYMTRMID], [t].[VENDSTTS] AS [VENDSTTS] FROM [TWO].[dbo].[PM00200] AS [t] WHERE [t].[VENDORID] = @p0;
SELECT TOP (1) [t].[TEN99TYPE] AS [TEN99TYPE] FROM [TWO].[dbo].[PM00200] AS [t] WHERE [t].[VENDORID] = @p1;
SELECT TOP (1) [t].[ACTINDX] AS [ACTINDX], [j].[ACCTTYPE] AS [ACCTTYPE], [j].[ACTIVE] AS [ACTIVE] FROM [TWO].[dbo].[GL00105] AS [t] JOIN [TWO].[dbo].[GL00100] AS [j] ON [j].[ACTINDX] = [t].[ACTINDX] WHERE [t].[ACTNUMST] = @p2;
SELECT TOP (1) [t].[ACTINDX] AS [ACTINDX], [j].[ACCTTYPE] AS [ACCTTYPE], [j].[ACTIVE] AS [ACTIVE] FROM [TWO].[dbo].[GL00105] AS [t] JOIN [TWO].[dbo].[GL00100] AS [j] ON [j].[ACTINDX] = [t].[ACTINDX] WHERE [t].[ACTNUMST] = @p3;
SELECT TOP (1) [t].[SERIES] AS [SERIES], [t].[BCHSTTUS] AS [BCHSTTUS], [t].[MKDTOPST] AS [MKDTOPST] FROM [TWO].[dbo].[SY00500] AS [t] WHERE [t].[BACHNUMB] = @p4 AND [t].[BCHSOURC] = @p5;

-- numbers
DECLARE @O_vCNTRLNUM varchar(21) = '', @O_iErrorState int = 0, @rc int = 0;
EXEC @rc = [TWO].[dbo].[taGetPMNextVoucherNumber] @O_vCNTRLNUM = @O_vCNTRLNUM OUTPUT, @I_sCNTRLTYP = 0, @O_iErrorState = @O_iErrorState OUTPUT;
SELECT RTRIM(CAST(@O_vCNTRLNUM AS varchar(21))) AS [number], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state];

-- peek (validate-only)
SELECT RTRIM(CAST((SELECT TOP (1) [NTVCHNUM] FROM [TWO].[dbo].[PM40100] WITH (NOLOCK)) AS varchar(21))) AS [number], 0 AS [state];

-- main
-- @p0 varchar(64) = "golden-operation-0001"
-- @p1 smallint = 1
-- @p2 char(17) = "00000000000800043"
-- @p3 char(15) = "ACETRAVE0001"
-- @p4 smallint = 6
-- @p5 char(75) = "000-5100-00"
-- @p6 numeric(19,5) = "500.5"
-- @p7 numeric(19,5) = "0"
-- @p8 smallint = 1
-- @p9 char(17) = "00000000000800043"
-- @p10 char(15) = "ACETRAVE0001"
-- @p11 smallint = 2
-- @p12 char(75) = "000-2100-00"
-- @p13 numeric(19,5) = "0"
-- @p14 numeric(19,5) = "500.5"
-- @p15 char(30) = "owed"
-- @p16 char(20) = "V-INV-9"
-- @p17 char(15) = "ACETRAVE0001"
-- @p18 datetime = "2026-11-21"
-- @p19 numeric(19,5) = "500.5"
-- @p20 numeric(19,5) = "400"
-- @p21 char(15) = "API-PM"
-- @p22 smallint = 1
-- @p23 char(17) = "00000000000800043"
-- @p24 numeric(19,5) = "500.50000"
-- @p25 numeric(19,5) = "500.50000"
DECLARE @rc int = 0, @O_iErrorState int = 0, @oErrString varchar(255) = '';
IF EXISTS (SELECT 1 FROM [TWO].[dbo].[GPGW_WRITE_JOURNAL] WITH (UPDLOCK, HOLDLOCK) WHERE [OPERATION_ID] = @p0)
BEGIN
  SELECT 'journal' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taPMDistribution] @I_vDOCTYPE = @p1, @I_vVCHRNMBR = @p2, @I_vVENDORID = @p3, @I_vDISTTYPE = @p4, @I_vACTNUMST = @p5, @I_vDEBITAMT = @p6, @I_vCRDTAMNT = @p7, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taPMDistribution' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taPMDistribution] @I_vDOCTYPE = @p8, @I_vVCHRNMBR = @p9, @I_vVENDORID = @p10, @I_vDISTTYPE = @p11, @I_vACTNUMST = @p12, @I_vDEBITAMT = @p13, @I_vCRDTAMNT = @p14, @I_vDistRef = @p15, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taPMDistribution' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taPMTransactionInsert] @I_vDOCNUMBR = @p16, @I_vVENDORID = @p17, @I_vDOCDATE = @p18, @I_vPRCHAMNT = @p19, @I_vTEN99AMNT = @p20, @I_vBACHNUMB = @p21, @I_vDOCTYPE = @p22, @I_vVCHNUMWK = @p23, @I_vDOCAMNT = @p24, @I_vCHRGAMNT = @p25, @I_vCREATEDIST = 0, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taPMTransactionInsert' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
SELECT 'ok' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
