-- ap-invoices: the eConnect calls of one write (writes/mssql/econnect.ts); parameters bound as typed below.

-- references
-- @p0 varchar(15) = "ACETRAVE0001"
-- @p1 varchar(15) = "ACETRAVE0001"
-- @p2 varchar(15) = "API-PM"
-- @p3 varchar(15) = "PM_Trxent"
SELECT TOP (1) [t].[CURNCYID] AS [CURNCYID], [t].[PYMTRMID] AS [PYMTRMID], [t].[VENDSTTS] AS [VENDSTTS] FROM [TWO].[dbo].[PM00200] AS [t] WHERE [t].[VENDORID] = @p0;
SELECT TOP (1) [t].[TEN99TYPE] AS [TEN99TYPE] FROM [TWO].[dbo].[PM00200] AS [t] WHERE [t].[VENDORID] = @p1;
SELECT TOP (1) [t].[SERIES] AS [SERIES], [t].[BCHSTTUS] AS [BCHSTTUS], [t].[MKDTOPST] AS [MKDTOPST] FROM [TWO].[dbo].[SY00500] AS [t] WHERE [t].[BACHNUMB] = @p2 AND [t].[BCHSOURC] = @p3;

-- numbers
DECLARE @O_vCNTRLNUM varchar(21) = '', @O_iErrorState int = 0, @rc int = 0;
EXEC @rc = [TWO].[dbo].[taGetPMNextVoucherNumber] @O_vCNTRLNUM = @O_vCNTRLNUM OUTPUT, @I_sCNTRLTYP = 0, @O_iErrorState = @O_iErrorState OUTPUT;
SELECT RTRIM(CAST(@O_vCNTRLNUM AS varchar(21))) AS [number], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state];

-- peek (validate-only)
SELECT RTRIM(CAST((SELECT TOP (1) [NTVCHNUM] FROM [TWO].[dbo].[PM40100] WITH (NOLOCK)) AS varchar(21))) AS [number], 0 AS [state];

-- main
-- @p0 varchar(64) = "golden-operation-0001"
-- @p1 char(20) = "V-INV-9"
-- @p2 char(15) = "ACETRAVE0001"
-- @p3 datetime = "2026-11-21"
-- @p4 numeric(19,5) = "500.5"
-- @p5 numeric(19,5) = "400"
-- @p6 char(15) = "API-PM"
-- @p7 smallint = 1
-- @p8 char(17) = "00000000000800043"
-- @p9 numeric(19,5) = "500.50000"
-- @p10 numeric(19,5) = "500.50000"
DECLARE @rc int = 0, @O_iErrorState int = 0, @oErrString varchar(255) = '';
IF EXISTS (SELECT 1 FROM [TWO].[dbo].[GPGW_WRITE_JOURNAL] WITH (UPDLOCK, HOLDLOCK) WHERE [OPERATION_ID] = @p0)
BEGIN
  SELECT 'journal' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taPMTransactionInsert] @I_vDOCNUMBR = @p1, @I_vVENDORID = @p2, @I_vDOCDATE = @p3, @I_vPRCHAMNT = @p4, @I_vTEN99AMNT = @p5, @I_vBACHNUMB = @p6, @I_vDOCTYPE = @p7, @I_vVCHNUMWK = @p8, @I_vDOCAMNT = @p9, @I_vCHRGAMNT = @p10, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taPMTransactionInsert' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
SELECT 'ok' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
