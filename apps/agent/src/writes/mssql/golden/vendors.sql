-- vendors: the eConnect calls of one write (writes/mssql/econnect.ts); parameters bound as typed below.

-- references
-- @p0 varchar(21) = "NET 30"
SELECT TOP (1) RTRIM([t].[PYMTRMID]) AS [key] FROM [TWO].[dbo].[SY03300] AS [t] WHERE [t].[PYMTRMID] = @p0;

-- main
-- @p0 varchar(64) = "golden-operation-0001"
-- @p1 smallint = 1
-- @p2 char(15) = "APIVEND"
-- @p3 char(64) = "API Vendor"
-- @p4 char(20) = "NET 30"
-- @p5 char(11) = "12-3456789"
-- @p6 smallint = 4
DECLARE @rc int = 0, @O_iErrorState int = 0, @oErrString varchar(255) = '';
IF EXISTS (SELECT 1 FROM [TWO].[dbo].[GPGW_WRITE_JOURNAL] WITH (UPDLOCK, HOLDLOCK) WHERE [OPERATION_ID] = @p0)
BEGIN
  SELECT 'journal' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taUpdateCreateVendorRcd] @I_vVENDSTTS = @p1, @I_vVENDORID = @p2, @I_vVENDNAME = @p3, @I_vPYMTRMID = @p4, @I_vTXIDNMBR = @p5, @I_vTEN99TYPE = @p6, @I_vUpdateIfExists = 0, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taUpdateCreateVendorRcd' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
SELECT 'ok' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
