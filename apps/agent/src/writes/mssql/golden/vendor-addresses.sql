-- vendor-addresses: the eConnect calls of one write (writes/mssql/econnect.ts); parameters bound as typed below.

-- references
-- @p0 varchar(15) = "ACETRAVE0001"
SELECT TOP (1) 1 AS [found] FROM [TWO].[dbo].[PM00200] AS [t] WHERE [t].[VENDORID] = @p0;

-- main
-- @p0 varchar(64) = "golden-operation-0001"
-- @p1 char(15) = "ACETRAVE0001"
-- @p2 char(15) = "REMIT"
-- @p3 char(60) = "Pat"
-- @p4 char(60) = "PO Box 1"
-- @p5 char(35) = "Fargo"
-- @p6 char(10) = "58102"
DECLARE @rc int = 0, @O_iErrorState int = 0, @oErrString varchar(255) = '';
IF EXISTS (SELECT 1 FROM [TWO].[dbo].[GPGW_WRITE_JOURNAL] WITH (UPDLOCK, HOLDLOCK) WHERE [OPERATION_ID] = @p0)
BEGIN
  SELECT 'journal' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taCreateVendorAddress] @I_vVENDORID = @p1, @I_vADRSCODE = @p2, @I_vVNDCNTCT = @p3, @I_vADDRESS1 = @p4, @I_vCITY = @p5, @I_vZIPCODE = @p6, @I_vUpdateIfExists = 0, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taCreateVendorAddress' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
SELECT 'ok' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
