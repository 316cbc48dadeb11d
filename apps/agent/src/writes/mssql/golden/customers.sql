-- customers: the eConnect calls of one write (writes/mssql/econnect.ts); parameters bound as typed below.

-- references
-- @p0 varchar(21) = "NET 30"
-- @p1 varchar(15) = "GREG E."
-- @p2 varchar(15) = "Z-US$"
SELECT TOP (1) RTRIM([t].[PYMTRMID]) AS [key] FROM [TWO].[dbo].[SY03300] AS [t] WHERE [t].[PYMTRMID] = @p0;
SELECT TOP (1) RTRIM([t].[SLPRSNID]) AS [key] FROM [TWO].[dbo].[RM00301] AS [t] WHERE [t].[SLPRSNID] = @p1;
SELECT TOP (1) 1 AS [found] FROM [DYNAMICS].[dbo].[MC40200] AS [t] WHERE [t].[CURNCYID] = @p2;

-- main
-- @p0 varchar(64) = "golden-operation-0001"
-- @p1 char(15) = "APITEST0001"
-- @p2 char(64) = "O'Brien & Sons"
-- @p3 char(15) = "OBRIEN"
-- @p4 char(15) = "USA-ILMO-T1"
-- @p5 char(20) = "NET 30"
-- @p6 char(15) = "GREG E."
-- @p7 char(15) = "Z-US$"
-- @p8 char(21) = "31255501230000"
-- @p9 tinyint = 0
-- @p10 tinyint = 1
-- @p11 smallint = 2
-- @p12 numeric(19,5) = "2500.00"
DECLARE @rc int = 0, @O_iErrorState int = 0, @oErrString varchar(255) = '';
IF EXISTS (SELECT 1 FROM [TWO].[dbo].[GPGW_WRITE_JOURNAL] WITH (UPDLOCK, HOLDLOCK) WHERE [OPERATION_ID] = @p0)
BEGIN
  SELECT 'journal' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taUpdateCreateCustomerRcd] @I_vCUSTNMBR = @p1, @I_vCUSTNAME = @p2, @I_vSHRTNAME = @p3, @I_vCUSTCLAS = @p4, @I_vPYMTRMID = @p5, @I_vSLPRSNID = @p6, @I_vCURNCYID = @p7, @I_vPHNUMBR1 = @p8, @I_vINACTIVE = @p9, @I_vHOLD = @p10, @I_vCRLMTTYP = @p11, @I_vCRLMTAMT = @p12, @I_vUpdateIfExists = 0, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taUpdateCreateCustomerRcd' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
SELECT 'ok' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
