-- sales-orders: the eConnect calls of one write (writes/mssql/econnect.ts); parameters bound as typed below.

-- references
-- @p0 varchar(15) = "AARONFIT0001"
-- @p1 varchar(15) = "STDORD"
-- @p2 smallint = 2
-- @p3 varchar(11) = "WAREHOUSE"
-- @p4 varchar(31) = "ACCS-10011-BK"
-- @p5 varchar(11) = "NORTH"
-- @p6 varchar(31) = "ACCS-10012"
-- @p7 varchar(11) = "RETAIL"
-- @p8 varchar(15) = "API-ORDERS"
-- @p9 varchar(15) = "Sales Entry"
SELECT TOP (1) [t].[CUSTNAME] AS [CUSTNAME], [t].[CURNCYID] AS [CURNCYID], [t].[PYMTRMID] AS [PYMTRMID], [t].[INACTIVE] AS [INACTIVE] FROM [TWO].[dbo].[RM00101] AS [t] WHERE [t].[CUSTNMBR] = @p0;
SELECT TOP (1) [t].[SOPNUMBE] AS [SOPNUMBE] FROM [TWO].[dbo].[SOP40200] AS [t] WHERE [t].[DOCID] = @p1 AND [t].[SOPTYPE] = @p2;
SELECT TOP (1) 1 AS [found] FROM [TWO].[dbo].[IV40700] AS [t] WHERE [t].[LOCNCODE] = @p3;
SELECT TOP (1) [t].[ITEMDESC] AS [ITEMDESC] FROM [TWO].[dbo].[IV00101] AS [t] WHERE [t].[ITEMNMBR] = @p4;
SELECT TOP (1) 1 AS [found] FROM [TWO].[dbo].[IV40700] AS [t] WHERE [t].[LOCNCODE] = @p5;
SELECT TOP (1) [t].[ITEMDESC] AS [ITEMDESC] FROM [TWO].[dbo].[IV00101] AS [t] WHERE [t].[ITEMNMBR] = @p6;
SELECT TOP (1) 1 AS [found] FROM [TWO].[dbo].[IV40800] AS [t] WHERE [t].[PRCLEVEL] = @p7;
SELECT TOP (1) [t].[SERIES] AS [SERIES], [t].[BCHSTTUS] AS [BCHSTTUS], [t].[MKDTOPST] AS [MKDTOPST] FROM [TWO].[dbo].[SY00500] AS [t] WHERE [t].[BACHNUMB] = @p8 AND [t].[BCHSOURC] = @p9;

-- numbers
-- @p0 tinyint = 2
-- @p1 char(15) = "STDORD"
DECLARE @O_vSopNumber varchar(21) = '', @O_iErrorState int = 0, @rc int = 0;
EXEC @rc = [TWO].[dbo].[taGetSopNumber] @I_tSOPTYPE = @p0, @I_cDOCID = @p1, @I_tInc_Dec = 1, @O_vSopNumber = @O_vSopNumber OUTPUT, @O_iErrorState = @O_iErrorState OUTPUT;
SELECT RTRIM(CAST(@O_vSopNumber AS varchar(21))) AS [number], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state];

-- peek (validate-only)
-- @p0 tinyint = 2
-- @p1 char(15) = "STDORD"
SELECT RTRIM(CAST((SELECT COALESCE(NULLIF((SELECT TOP (1) RTRIM([SOPNUMBE]) FROM [TWO].[dbo].[SOP40200] WITH (NOLOCK) WHERE [SOPTYPE] = @p0 AND [DOCID] = @p1), ''), (SELECT TOP (1) RTRIM([SOPNUMBE]) FROM [TWO].[dbo].[SOP40300] WITH (NOLOCK) WHERE [SOPTYPE] = @p0))) AS varchar(21))) AS [number], 0 AS [state];

-- main
-- @p0 varchar(64) = "golden-operation-0001"
-- @p1 smallint = 2
-- @p2 char(21) = "ORDST1101"
-- @p3 char(15) = "AARONFIT0001"
-- @p4 datetime = "2026-11-20"
-- @p5 char(10) = "WAREHOUSE"
-- @p6 char(30) = "ACCS-10011-BK"
-- @p7 numeric(19,5) = "2"
-- @p8 numeric(19,5) = "19.99"
-- @p9 char(15) = "STDORD"
-- @p10 smallint = 2
-- @p11 char(21) = "ORDST1101"
-- @p12 char(15) = "AARONFIT0001"
-- @p13 datetime = "2026-11-20"
-- @p14 char(10) = "NORTH"
-- @p15 char(30) = "ACCS-10012"
-- @p16 char(100) = "Special"
-- @p17 numeric(19,5) = "1.5"
-- @p18 numeric(19,5) = "100"
-- @p19 char(8) = "CASE"
-- @p20 char(10) = "RETAIL"
-- @p21 char(15) = "STDORD"
-- @p22 char(15) = "STDORD"
-- @p23 char(15) = "AARONFIT0001"
-- @p24 datetime = "2026-11-20"
-- @p25 char(15) = "API-ORDERS"
-- @p26 char(10) = "WAREHOUSE"
-- @p27 char(20) = "PO-77"
-- @p28 smallint = 2
-- @p29 char(21) = "ORDST1101"
-- @p30 numeric(19,5) = "12.50"
DECLARE @rc int = 0, @O_iErrorState int = 0, @oErrString varchar(255) = '';
IF EXISTS (SELECT 1 FROM [TWO].[dbo].[GPGW_WRITE_JOURNAL] WITH (UPDLOCK, HOLDLOCK) WHERE [OPERATION_ID] = @p0)
BEGIN
  SELECT 'journal' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taSopLineIvcInsert] @I_vSOPTYPE = @p1, @I_vSOPNUMBE = @p2, @I_vCUSTNMBR = @p3, @I_vDOCDATE = @p4, @I_vLOCNCODE = @p5, @I_vITEMNMBR = @p6, @I_vQUANTITY = @p7, @I_vUNITPRCE = @p8, @I_vDOCID = @p9, @I_vDEFEXTPRICE = 1, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taSopLineIvcInsert' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taSopLineIvcInsert] @I_vSOPTYPE = @p10, @I_vSOPNUMBE = @p11, @I_vCUSTNMBR = @p12, @I_vDOCDATE = @p13, @I_vLOCNCODE = @p14, @I_vITEMNMBR = @p15, @I_vITEMDESC = @p16, @I_vQUANTITY = @p17, @I_vUNITPRCE = @p18, @I_vUOFM = @p19, @I_vPRCLEVEL = @p20, @I_vDOCID = @p21, @I_vDEFEXTPRICE = 1, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taSopLineIvcInsert' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taSopHdrIvcInsert] @I_vDOCID = @p22, @I_vCUSTNMBR = @p23, @I_vDOCDATE = @p24, @I_vBACHNUMB = @p25, @I_vLOCNCODE = @p26, @I_vCSTPONBR = @p27, @I_vSOPTYPE = @p28, @I_vSOPNUMBE = @p29, @I_vFREIGHT = @p30, @I_vUpdateExisting = 0, @I_vDEFPRICING = 1, @I_vCREATETAXES = 1, @I_vDEFTAXSCHDS = 1, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taSopHdrIvcInsert' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
SELECT 'ok' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
