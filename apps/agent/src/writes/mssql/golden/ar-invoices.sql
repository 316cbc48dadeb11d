-- ar-invoices: the eConnect calls of one write (writes/mssql/econnect.ts); parameters bound as typed below.

-- references
-- @p0 varchar(15) = "AARONFIT0001"
-- @p1 varchar(15) = "API-RM"
-- @p2 varchar(15) = "RM_Sales"
SELECT TOP (1) [t].[CUSTNAME] AS [CUSTNAME], [t].[CURNCYID] AS [CURNCYID], [t].[PYMTRMID] AS [PYMTRMID], [t].[INACTIVE] AS [INACTIVE] FROM [TWO].[dbo].[RM00101] AS [t] WHERE [t].[CUSTNMBR] = @p0;
SELECT TOP (1) [t].[SERIES] AS [SERIES], [t].[BCHSTTUS] AS [BCHSTTUS], [t].[MKDTOPST] AS [MKDTOPST] FROM [TWO].[dbo].[SY00500] AS [t] WHERE [t].[BACHNUMB] = @p1 AND [t].[BCHSOURC] = @p2;

-- numbers
-- @p0 tinyint = 1
DECLARE @O_vDOCNumber varchar(21) = '', @O_iErrorState int = 0, @rc int = 0;
EXEC @rc = [TWO].[dbo].[taGetPaymentNumber] @I_vDOCTYPE = @p0, @I_vInc_Dec = 1, @O_vDOCNumber = @O_vDOCNumber OUTPUT, @O_iErrorState = @O_iErrorState OUTPUT;
SELECT RTRIM(CAST(@O_vDOCNumber AS varchar(21))) AS [number], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state];

-- peek (validate-only)
-- @p0 smallint = 1
SELECT RTRIM(CAST((SELECT TOP (1) [DOCNUMBR] FROM [TWO].[dbo].[RM40401] WITH (NOLOCK) WHERE [RMDTYPAL] = @p0) AS varchar(21))) AS [number], 0 AS [state];

-- main
-- @p0 varchar(64) = "golden-operation-0001"
-- @p1 char(15) = "AARONFIT0001"
-- @p2 datetime = "2026-11-21"
-- @p3 numeric(19,5) = "1000.00"
-- @p4 numeric(19,5) = "80"
-- @p5 char(30) = "Consulting"
-- @p6 char(15) = "API-RM"
-- @p7 smallint = 1
-- @p8 char(20) = "INV00001359"
-- @p9 numeric(19,5) = "1080.00000"
DECLARE @rc int = 0, @O_iErrorState int = 0, @oErrString varchar(255) = '';
IF EXISTS (SELECT 1 FROM [TWO].[dbo].[GPGW_WRITE_JOURNAL] WITH (UPDLOCK, HOLDLOCK) WHERE [OPERATION_ID] = @p0)
BEGIN
  SELECT 'journal' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taRMTransaction] @I_vCUSTNMBR = @p1, @I_vDOCDATE = @p2, @I_vSLSAMNT = @p3, @I_vFRTAMNT = @p4, @I_vDOCDESCR = @p5, @I_vBACHNUMB = @p6, @I_vRMDTYPAL = @p7, @I_vDOCNUMBR = @p8, @I_vDOCAMNT = @p9, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taRMTransaction' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
SELECT 'ok' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
