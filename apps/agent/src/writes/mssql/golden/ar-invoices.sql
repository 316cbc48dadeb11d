-- ar-invoices: the eConnect calls of one write (writes/mssql/econnect.ts); parameters bound as typed below.

-- references
-- @p0 varchar(15) = "AARONFIT0001"
-- @p1 varchar(129) = "000-1200-00"
-- @p2 varchar(129) = "000-4100-00"
-- @p3 varchar(129) = "000-4500-00"
-- @p4 varchar(15) = "API-RM"
-- @p5 varchar(15) = "RM_Sales"
SELECT TOP (1) [t].[CUSTNAME] AS [CUSTNAME], [t].[CURNCYID] AS [CURNCYID], [t].[PYMTRMID] AS [PYMTRMID], [t].[INACTIVE] AS [INACTIVE] FROM [TWO].[dbo].[RM00101] AS [t] WHERE [t].[CUSTNMBR] = @p0;
SELECT TOP (1) [t].[ACTINDX] AS [ACTINDX], [j].[ACCTTYPE] AS [ACCTTYPE], [j].[ACTIVE] AS [ACTIVE] FROM [TWO].[dbo].[GL00105] AS [t] JOIN [TWO].[dbo].[GL00100] AS [j] ON [j].[ACTINDX] = [t].[ACTINDX] WHERE [t].[ACTNUMST] = @p1;
SELECT TOP (1) [t].[ACTINDX] AS [ACTINDX], [j].[ACCTTYPE] AS [ACCTTYPE], [j].[ACTIVE] AS [ACTIVE] FROM [TWO].[dbo].[GL00105] AS [t] JOIN [TWO].[dbo].[GL00100] AS [j] ON [j].[ACTINDX] = [t].[ACTINDX] WHERE [t].[ACTNUMST] = @p2;
SELECT TOP (1) [t].[ACTINDX] AS [ACTINDX], [j].[ACCTTYPE] AS [ACCTTYPE], [j].[ACTIVE] AS [ACTIVE] FROM [TWO].[dbo].[GL00105] AS [t] JOIN [TWO].[dbo].[GL00100] AS [j] ON [j].[ACTINDX] = [t].[ACTINDX] WHERE [t].[ACTNUMST] = @p3;
SELECT TOP (1) [t].[SERIES] AS [SERIES], [t].[BCHSTTUS] AS [BCHSTTUS], [t].[MKDTOPST] AS [MKDTOPST] FROM [TWO].[dbo].[SY00500] AS [t] WHERE [t].[BACHNUMB] = @p4 AND [t].[BCHSOURC] = @p5;

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
-- @p1 smallint = 1
-- @p2 char(20) = "INV00001359"
-- @p3 char(15) = "AARONFIT0001"
-- @p4 smallint = 3
-- @p5 char(75) = "000-1200-00"
-- @p6 numeric(19,5) = "1080"
-- @p7 numeric(19,5) = "0"
-- @p8 char(30) = "due"
-- @p9 smallint = 1
-- @p10 char(20) = "INV00001359"
-- @p11 char(15) = "AARONFIT0001"
-- @p12 smallint = 9
-- @p13 char(75) = "000-4100-00"
-- @p14 numeric(19,5) = "0"
-- @p15 numeric(19,5) = "1000"
-- @p16 smallint = 1
-- @p17 char(20) = "INV00001359"
-- @p18 char(15) = "AARONFIT0001"
-- @p19 smallint = 11
-- @p20 char(75) = "000-4500-00"
-- @p21 numeric(19,5) = "0"
-- @p22 numeric(19,5) = "80"
-- @p23 char(15) = "AARONFIT0001"
-- @p24 datetime = "2026-11-21"
-- @p25 numeric(19,5) = "1000.00"
-- @p26 numeric(19,5) = "80"
-- @p27 char(30) = "Consulting"
-- @p28 char(15) = "API-RM"
-- @p29 smallint = 1
-- @p30 char(20) = "INV00001359"
-- @p31 numeric(19,5) = "1080.00000"
DECLARE @rc int = 0, @O_iErrorState int = 0, @oErrString varchar(255) = '';
IF EXISTS (SELECT 1 FROM [TWO].[dbo].[GPGW_WRITE_JOURNAL] WITH (UPDLOCK, HOLDLOCK) WHERE [OPERATION_ID] = @p0)
BEGIN
  SELECT 'journal' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taRMDistribution] @I_vRMDTYPAL = @p1, @I_vDOCNUMBR = @p2, @I_vCUSTNMBR = @p3, @I_vDISTTYPE = @p4, @I_vACTNUMST = @p5, @I_vDEBITAMT = @p6, @I_vCRDTAMNT = @p7, @I_vDistRef = @p8, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taRMDistribution' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taRMDistribution] @I_vRMDTYPAL = @p9, @I_vDOCNUMBR = @p10, @I_vCUSTNMBR = @p11, @I_vDISTTYPE = @p12, @I_vACTNUMST = @p13, @I_vDEBITAMT = @p14, @I_vCRDTAMNT = @p15, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taRMDistribution' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taRMDistribution] @I_vRMDTYPAL = @p16, @I_vDOCNUMBR = @p17, @I_vCUSTNMBR = @p18, @I_vDISTTYPE = @p19, @I_vACTNUMST = @p20, @I_vDEBITAMT = @p21, @I_vCRDTAMNT = @p22, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taRMDistribution' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taRMTransaction] @I_vCUSTNMBR = @p23, @I_vDOCDATE = @p24, @I_vSLSAMNT = @p25, @I_vFRTAMNT = @p26, @I_vDOCDESCR = @p27, @I_vBACHNUMB = @p28, @I_vRMDTYPAL = @p29, @I_vDOCNUMBR = @p30, @I_vDOCAMNT = @p31, @I_vCREATEDIST = 0, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taRMTransaction' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
SELECT 'ok' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
