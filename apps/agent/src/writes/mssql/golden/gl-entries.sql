-- gl-entries: the eConnect calls of one write (writes/mssql/econnect.ts); parameters bound as typed below.

-- references
-- @p0 varchar(129) = "000-1100-00"
-- @p1 varchar(129) = "000-4100-00"
-- @p2 varchar(15) = "API-GL"
-- @p3 varchar(15) = "GL_Normal"
SELECT TOP (1) [t].[ACTINDX] AS [ACTINDX], [j].[ACCTTYPE] AS [ACCTTYPE], [j].[ACTIVE] AS [ACTIVE] FROM [TWO].[dbo].[GL00105] AS [t] JOIN [TWO].[dbo].[GL00100] AS [j] ON [j].[ACTINDX] = [t].[ACTINDX] WHERE [t].[ACTNUMST] = @p0;
SELECT TOP (1) [t].[ACTINDX] AS [ACTINDX], [j].[ACCTTYPE] AS [ACCTTYPE], [j].[ACTIVE] AS [ACTIVE] FROM [TWO].[dbo].[GL00105] AS [t] JOIN [TWO].[dbo].[GL00100] AS [j] ON [j].[ACTINDX] = [t].[ACTINDX] WHERE [t].[ACTNUMST] = @p1;
SELECT TOP (1) [t].[SERIES] AS [SERIES], [t].[BCHSTTUS] AS [BCHSTTUS], [t].[MKDTOPST] AS [MKDTOPST] FROM [TWO].[dbo].[SY00500] AS [t] WHERE [t].[BACHNUMB] = @p2 AND [t].[BCHSOURC] = @p3;

-- numbers
DECLARE @O_vJournalEntryNumber char(13) = '', @O_iErrorState int = 0, @rc int = 0;
EXEC @rc = [TWO].[dbo].[taGetNextJournalEntry] @I_vInc_Dec = 1, @O_vJournalEntryNumber = @O_vJournalEntryNumber OUTPUT, @O_iErrorState = @O_iErrorState OUTPUT;
SELECT RTRIM(CAST(@O_vJournalEntryNumber AS varchar(21))) AS [number], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state];

-- peek (validate-only)
SELECT RTRIM(CAST((SELECT TOP (1) [NJRNLENT] FROM [TWO].[dbo].[GL40000] WITH (NOLOCK)) AS varchar(21))) AS [number], 0 AS [state];

-- main
-- @p0 varchar(64) = "golden-operation-0001"
-- @p1 char(15) = "API-GL"
-- @p2 int = 2426
-- @p3 numeric(19,5) = "100.00"
-- @p4 char(30) = "one"
-- @p5 numeric(19,5) = "0"
-- @p6 char(75) = "000-1100-00"
-- @p7 char(15) = "API-GL"
-- @p8 int = 2426
-- @p9 numeric(19,5) = "100.00"
-- @p10 numeric(19,5) = "0"
-- @p11 char(75) = "000-4100-00"
-- @p12 char(15) = "API-GL"
-- @p13 int = 2426
-- @p14 char(30) = "API accrual"
-- @p15 datetime = "2026-11-22"
-- @p16 char(11) = "GJ"
-- @p17 smallint = 0
DECLARE @rc int = 0, @O_iErrorState int = 0, @oErrString varchar(255) = '';
IF EXISTS (SELECT 1 FROM [TWO].[dbo].[GPGW_WRITE_JOURNAL] WITH (UPDLOCK, HOLDLOCK) WHERE [OPERATION_ID] = @p0)
BEGIN
  SELECT 'journal' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taGLTransactionLineInsert] @I_vBACHNUMB = @p1, @I_vJRNENTRY = @p2, @I_vDEBITAMT = @p3, @I_vDSCRIPTN = @p4, @I_vCRDTAMNT = @p5, @I_vACTNUMST = @p6, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taGLTransactionLineInsert' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taGLTransactionLineInsert] @I_vBACHNUMB = @p7, @I_vJRNENTRY = @p8, @I_vCRDTAMNT = @p9, @I_vDEBITAMT = @p10, @I_vACTNUMST = @p11, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taGLTransactionLineInsert' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
EXEC @rc = [TWO].[dbo].[taGLTransactionHeaderInsert] @I_vBACHNUMB = @p12, @I_vJRNENTRY = @p13, @I_vREFRENCE = @p14, @I_vTRXDATE = @p15, @I_vSOURCDOC = @p16, @I_vTRXTYPE = @p17, @O_iErrorState = @O_iErrorState OUTPUT, @oErrString = @oErrString OUTPUT;
IF @rc <> 0 OR @O_iErrorState <> 0
BEGIN
  SELECT 'gp' AS [stopped], 'taGLTransactionHeaderInsert' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];
  RETURN;
END;
SELECT 'ok' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];
