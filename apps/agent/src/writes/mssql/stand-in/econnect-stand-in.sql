-- =====================================================================================================
-- STAND-IN FOR GP's eCONNECT PROCEDURES. THIS IS NOT eCONNECT. FOR THROWAWAY TEST DATABASES ONLY.
-- =====================================================================================================
-- What it is (docs/decisions.md#writes-on-the-agent): procedures with the names and the parameters the
-- agent's SQL Server writer calls (writes/mssql/econnect.ts), so that the gated suite
-- (e2e/mssqlWrites.test.ts) can run every write against a SQL Server loaded with the demo. Each one
-- records its call in GPGW_STANDIN_CALLS and the parameters it was given in GPGW_STANDIN_PARAMETERS
-- and inserts the rows GP would insert for the document (gp-schema.md §16), enough for the writer's
-- read-back through the read catalogue. It validates almost nothing: GP's own checks, defaults,
-- distributions, posting setup and the hundreds of other eConnect parameters are not here. What it
-- does as GP's procedures do: it reads and executes GP's objects in the system database across
-- databases (so a login without the write role's grants fails, error 229), it numbers receivables
-- through taGetPaymentNumber, refuses an unknown currency (1327, 1305), prices with more decimals than
-- the currency's (4646, 4647), a header subtotal other than the lines' sum (67) and a return line
-- whose quantity buckets do not add up (183), and computes extended prices and totals when asked to.
-- One marked input is refused, as eConnect refuses: a customer named STANDIN-REFUSE (error 90001,
-- and 90002 in the error string), whose codes are described in the stand-in DYNAMICS..taErrorCode.
-- Run it in a company database (USE [TWO] first); it also creates DYNAMICS..taErrorCode and
-- DYNAMICS..MC40200 when they are missing. It must never be run against a real GP database.
-- =====================================================================================================

IF OBJECT_ID(N'[dbo].[GPGW_STANDIN_CALLS]', N'U') IS NULL
CREATE TABLE [dbo].[GPGW_STANDIN_CALLS] (
    [CALL_ID] int IDENTITY (1, 1) NOT NULL PRIMARY KEY,
    [PROCEDURE_NAME] sysname NOT NULL
);
GO

-- One row per parameter of a call, its value as typed; NULL (every parameter's default here) means not given.
IF OBJECT_ID(N'[dbo].[GPGW_STANDIN_PARAMETERS]', N'U') IS NULL
CREATE TABLE [dbo].[GPGW_STANDIN_PARAMETERS] (
    [CALL_ID] int NOT NULL,
    [PARAMETER_NAME] sysname NOT NULL,
    [PARAMETER_VALUE] sql_variant NULL,
    PRIMARY KEY ([CALL_ID], [PARAMETER_NAME])
);
GO

-- GP's error descriptions live in DYNAMICS..taErrorCode; the stand-in's codes are its own.
IF OBJECT_ID(N'[DYNAMICS].[dbo].[taErrorCode]', N'U') IS NULL
CREATE TABLE [DYNAMICS].[dbo].[taErrorCode] (
    [ErrorCode] int NOT NULL PRIMARY KEY,
    [ErrorDesc] varchar(255) NOT NULL
);
GO

DELETE FROM [DYNAMICS].[dbo].[taErrorCode] WHERE [ErrorCode] BETWEEN 90000 AND 90099;
INSERT INTO [DYNAMICS].[dbo].[taErrorCode] ([ErrorCode], [ErrorDesc]) VALUES
(90001, 'STAND-IN: the customer name asks to be refused'),
(90002, 'STAND-IN: a second code for the same refusal'),
(90010, 'STAND-IN: the document type id has no numbering'),
(90011, 'STAND-IN: payables has no next voucher number'),
(90012, 'STAND-IN: the general ledger has no next journal entry'),
(90020, 'STAND-IN: no account with this number');
GO

-- GP's own codes where the stand-in refuses as GP's procedures do (the words are the stand-in's).
DELETE FROM [DYNAMICS].[dbo].[taErrorCode] WHERE [ErrorCode] IN (44, 67, 124, 183, 713, 714, 739, 769, 772, 866, 928, 1305, 1327, 1340, 1342, 1343, 1344, 2212, 2213, 4646, 4647, 5313, 5631, 9001, 9177);
INSERT INTO [DYNAMICS].[dbo].[taErrorCode] ([ErrorCode], [ErrorDesc]) VALUES
(67, 'STAND-IN (GP code of taSopHdrIvcInsert): the subtotal is not the sum of the lines'' extended prices'),
(866, 'STAND-IN (GP code of taSopHdrIvcInsert): a tax amount was passed while GP creates the taxes'),
(2212, 'STAND-IN (GP code of taSopHdrIvcInsert): CREATETAXES is neither 0 nor 1'),
(2213, 'STAND-IN (GP code of taSopHdrIvcInsert): DEFTAXSCHDS is neither 0 nor 1'),
(183, 'STAND-IN (GP code of taSopLineIvcInsert): a returned quantity is not split into on hand, returned, in use, in service and damaged'),
(5313, 'STAND-IN (GP code of taSopLineIvcInsert): the unit of measure is not in the item''s schedule (IV40202)'),
(928, 'STAND-IN (GP code of taSopLineIvcInsert): the price level does not exist (IV40800)'),
(9177, 'STAND-IN (GP code of taSopLineIvcInsert): the price level has no price for the item in the unit (IV00108)'),
(4646, 'STAND-IN (GP code of taSopLineIvcInsert): the unit price has more decimals than the item''s currency'),
(4647, 'STAND-IN (GP code of taSopLineIvcInsert): the extended price has more decimals than the currency'),
(1340, 'STAND-IN (GP code of taRMDistribution): no account with this number'),
(1342, 'STAND-IN (GP code of taRMDistribution): a line has both a debit and a credit'),
(1343, 'STAND-IN (GP code of taRMDistribution): a negative amount'),
(1344, 'STAND-IN (GP code of taRMDistribution): a line with neither a debit nor a credit'),
(769, 'STAND-IN (GP code of taPMDistribution): no account with this number'),
(9001, 'STAND-IN (GP code of taPMDistribution): the account is inactive'),
(772, 'STAND-IN (GP code of taPMDistribution): a line has both a debit and a credit'),
(739, 'STAND-IN (GP code of taPMDistribution): a negative amount'),
(713, 'STAND-IN (GP code of taPMTransactionInsert): a 1099 amount for a vendor that is not a 1099 vendor'),
(714, 'STAND-IN (GP code of taPMTransactionInsert): the 1099 amount is more than the purchases less the trade discount'),
(5631, 'STAND-IN (GP code of taPMTransactionInsert): an amount is negative'),
(44, 'STAND-IN (GP code of taGetPaymentNumber): the document type or increment is missing'),
(124, 'STAND-IN (GP code of taGetPaymentNumber): RM40401 has no row for the document type'),
(1305, 'STAND-IN (GP code of taUpdateCreateCustomerRcd): the currency is not set up for this company (MC60100)'),
(1327, 'STAND-IN (GP code of taUpdateCreateCustomerRcd): the currency does not exist (MC40200)');
GO

-- The currency list: the demo has none, so the currencies its customers, vendors and checkbooks use.
IF OBJECT_ID(N'[DYNAMICS].[dbo].[MC40200]', N'U') IS NULL
CREATE TABLE [DYNAMICS].[dbo].[MC40200] (
    [CURNCYID] char(15) NOT NULL PRIMARY KEY,
    [CURRNIDX] smallint NOT NULL DEFAULT (0),
    [CRNCYDSC] char(31) NOT NULL DEFAULT (''),
    [ISOCURRC] char(3) NOT NULL DEFAULT (''),
    [DECPLCUR] smallint NOT NULL DEFAULT (3)
);
GO

INSERT INTO [DYNAMICS].[dbo].[MC40200] ([CURNCYID])
SELECT DISTINCT u.[CURNCYID]
FROM (
    SELECT [CURNCYID] FROM [dbo].[RM00101]
    UNION
    SELECT [CURNCYID] FROM [dbo].[PM00200]
    UNION
    SELECT [CURNCYID] FROM [dbo].[CM00100]
) AS u
WHERE u.[CURNCYID] <> '' AND NOT EXISTS (SELECT 1 FROM [DYNAMICS].[dbo].[MC40200] AS m WHERE m.[CURNCYID] = u.[CURNCYID]);
GO

-- STAND-IN system objects. GP's eConnect procedures read and execute these in the system database
-- (apps/agent/src/mssql/econnectSystemObjects.ts lists them, docs/decisions.md#what-econnect-reaches-in-the-system-database
-- cites them), and the stand-in's procedures reach them the same way, across databases, so that a
-- login without the write role's grants fails here as it fails on GP (error 229). Each is created
-- only when missing, with only the columns the stand-in reads; none behaves like GP's.
IF OBJECT_ID(N'[DYNAMICS].[dbo].[SY05501]', N'U') IS NULL
CREATE TABLE [DYNAMICS].[dbo].[SY05501] ([CMPANYID] smallint NOT NULL PRIMARY KEY, [EXPRINST] tinyint NOT NULL DEFAULT (0));
GO

IF OBJECT_ID(N'[DYNAMICS].[dbo].[MC60100]', N'U') IS NULL
CREATE TABLE [DYNAMICS].[dbo].[MC60100] (
    [CMPANYID] smallint NOT NULL,
    [CURNCYID] char(15) NOT NULL,
    PRIMARY KEY ([CMPANYID], [CURNCYID])
);
GO

-- Every company may use every currency of the stand-in's MC40200.
INSERT INTO [DYNAMICS].[dbo].[MC60100] ([CMPANYID], [CURNCYID])
SELECT c.[CMPANYID], m.[CURNCYID]
FROM [DYNAMICS].[dbo].[SY01500] AS c
CROSS JOIN [DYNAMICS].[dbo].[MC40200] AS m
WHERE NOT EXISTS (
    SELECT 1 FROM [DYNAMICS].[dbo].[MC60100] AS a WHERE a.[CMPANYID] = c.[CMPANYID] AND a.[CURNCYID] = m.[CURNCYID]
);
GO

IF OBJECT_ID(N'[DYNAMICS].[dbo].[SY05400]', N'U') IS NULL
CREATE TABLE [DYNAMICS].[dbo].[SY05400] ([USERLANG] smallint NOT NULL PRIMARY KEY);
GO

IF OBJECT_ID(N'[DYNAMICS].[dbo].[SY00800]', N'U') IS NULL
CREATE TABLE [DYNAMICS].[dbo].[SY00800] (
    [BCHSOURC] char(15) NOT NULL, [BACHNUMB] char(15) NOT NULL, [TRXSOURC] char(25) NOT NULL, [CMPNYNAM] char(65) NOT NULL
);
GO

IF OBJECT_ID(N'[DYNAMICS].[dbo].[SY01400]', N'U') IS NULL
CREATE TABLE [DYNAMICS].[dbo].[SY01400] ([USERID] char(15) NOT NULL PRIMARY KEY);
GO

IF OBJECT_ID(N'[DYNAMICS].[dbo].[MC00100]', N'U') IS NULL
CREATE TABLE [DYNAMICS].[dbo].[MC00100] ([EXGTBLID] char(15) NOT NULL, [XCHGRATE] numeric(19, 7) NOT NULL);
GO

IF OBJECT_ID(N'[DYNAMICS].[dbo].[MC40300]', N'U') IS NULL
CREATE TABLE [DYNAMICS].[dbo].[MC40300] ([EXGTBLID] char(15) NOT NULL PRIMARY KEY, [CURNCYID] char(15) NOT NULL);
GO

-- The next note index of a company (GP keeps it in SY01500.NOTEINDX, which the demo's SY01500 has not).
IF OBJECT_ID(N'[DYNAMICS].[dbo].[GPGW_STANDIN_NOTEINDEX]', N'U') IS NULL
CREATE TABLE [DYNAMICS].[dbo].[GPGW_STANDIN_NOTEINDEX] ([CMPANYID] smallint NOT NULL PRIMARY KEY, [NOTEINDX] numeric(19, 5) NOT NULL);
GO

-- The system procedures are created in DYNAMICS (CREATE PROCEDURE takes no database name, hence sp_executesql there).
IF OBJECT_ID(N'[DYNAMICS].[dbo].[tasmGetNextNoteIndex]', N'P') IS NULL
EXEC [DYNAMICS].[sys].[sp_executesql] N'CREATE PROCEDURE [dbo].[tasmGetNextNoteIndex]
    @I_sCompanyID smallint = NULL, @I_iSQLSessionID int = NULL, @I_noteincrement int = 1,
    @O_mNoteIndex numeric(19, 5) = NULL OUTPUT, @O_iErrorState int = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SELECT @O_mNoteIndex = 0, @O_iErrorState = 0;
    IF @I_sCompanyID IS NULL OR @I_iSQLSessionID IS NULL
    BEGIN
        SET @O_iErrorState = 3564;
        RETURN @O_iErrorState;
    END;
    UPDATE [dbo].[GPGW_STANDIN_NOTEINDEX] SET @O_mNoteIndex = [NOTEINDX], [NOTEINDX] = [NOTEINDX] + @I_noteincrement
    WHERE [CMPANYID] = @I_sCompanyID;
    IF @@ROWCOUNT = 0
        INSERT INTO [dbo].[GPGW_STANDIN_NOTEINDEX] ([CMPANYID], [NOTEINDX]) VALUES (@I_sCompanyID, 1 + @I_noteincrement);
    IF @O_mNoteIndex < 1 SET @O_mNoteIndex = 1;
    RETURN 0;
END;';
GO

-- GP locks a document in tempdb..DEX_LOCK here; the stand-in only answers that nothing is locked.
IF OBJECT_ID(N'[DYNAMICS].[dbo].[taDEXLOCKS]', N'P') IS NULL
EXEC [DYNAMICS].[sys].[sp_executesql] N'CREATE PROCEDURE [dbo].[taDEXLOCKS]
    @I_vOperation int, @I_vtable_path_name char(255) = '''', @I_vsession_id int = 0, @I_vrow_id int = 0,
    @O_oExists int OUTPUT, @O_oInsertStatus int OUTPUT, @O_iErrorState int OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SELECT @O_oExists = 0, @O_oInsertStatus = CASE WHEN @I_vOperation = 1 THEN 1 ELSE 0 END, @O_iErrorState = 0;
    RETURN 0;
END;';
GO

IF OBJECT_ID(N'[DYNAMICS].[dbo].[smGetConstantInt]', N'P') IS NULL
EXEC [DYNAMICS].[sys].[sp_executesql] N'CREATE PROCEDURE [dbo].[smGetConstantInt]
    @I_cConstantName char(255) = NULL, @O_iConstantValue int = NULL OUTPUT, @O_iErrorState int = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SELECT @O_iConstantValue = 0, @O_iErrorState = CASE WHEN @I_cConstantName IS NULL THEN 20271 ELSE 0 END;
    RETURN 0;
END;';
GO

IF OBJECT_ID(N'[DYNAMICS].[dbo].[smGetMsgString]', N'P') IS NULL
EXEC [DYNAMICS].[sys].[sp_executesql] N'CREATE PROCEDURE [dbo].[smGetMsgString]
    @I_iMessageNumber int = NULL, @I_cDBName char(5) = NULL, @O_vMessage varchar(255) = NULL OUTPUT, @O_iErrorState int = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SELECT @O_vMessage = '''', @O_iErrorState = CASE WHEN @I_iMessageNumber IS NULL OR @I_cDBName IS NULL THEN 20267 ELSE 0 END;
    RETURN 0;
END;';
GO

IF OBJECT_ID(N'[DYNAMICS].[dbo].[smGetNextNoteIndex]', N'P') IS NULL
EXEC [DYNAMICS].[sys].[sp_executesql] N'CREATE PROCEDURE [dbo].[smGetNextNoteIndex]
    @I_sCompanyID smallint = NULL, @I_iSQLSessionID int = NULL, @O_mNoteIndex numeric(19, 5) = NULL OUTPUT, @O_iErrorState int = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    EXEC [dbo].[tasmGetNextNoteIndex] @I_sCompanyID, @I_iSQLSessionID, 1, @O_mNoteIndex OUTPUT, @O_iErrorState OUTPUT;
    RETURN 0;
END;';
GO

-- GP's next number: the trailing digits incremented, their width kept (as writes/numbers.ts).
CREATE OR ALTER FUNCTION [dbo].[gpgw_standin_NextNumber] (@number varchar(21))
RETURNS varchar(21)
AS
BEGIN
    DECLARE @trimmed varchar(21) = RTRIM(@number);
    DECLARE @digits int = PATINDEX('%[^0-9]%', REVERSE(@trimmed) + 'x') - 1;
    IF @digits = 0 RETURN @trimmed + '1';
    DECLARE @next varchar(21) = CAST(CAST(RIGHT(@trimmed, @digits) AS bigint) + 1 AS varchar(21));
    RETURN LEFT(@trimmed, LEN(@trimmed) - @digits)
        + REPLICATE('0', CASE WHEN @digits > LEN(@next) THEN @digits - LEN(@next) ELSE 0 END) + @next;
END;
GO

-- Counts a document into its batch, creating the batch when it does not exist (as eConnect does).
CREATE OR ALTER PROCEDURE [dbo].[gpgw_standin_AddToBatch]
    @source char(15), @batch char(15), @series smallint, @amount numeric(19, 5)
AS
BEGIN
    SET NOCOUNT ON;
    UPDATE [dbo].[SY00500]
    SET [NUMOFTRX] = [NUMOFTRX] + 1, [BCHTOTAL] = [BCHTOTAL] + @amount, [MODIFDT] = CONVERT(date, GETDATE())
    WHERE [BCHSOURC] = @source AND [BACHNUMB] = @batch;
    IF @@ROWCOUNT = 0
        INSERT INTO [dbo].[SY00500] (
            [BCHSOURC], [BACHNUMB], [SERIES], [NUMOFTRX], [BCHTOTAL], [BACHDATE], [CREATDDT], [MODIFDT], [ORIGIN]
        )
        VALUES (
            @source, @batch, @series, 1, @amount,
            CONVERT(date, GETDATE()), CONVERT(date, GETDATE()), CONVERT(date, GETDATE()), 1
        );
END;
GO

CREATE OR ALTER PROCEDURE [dbo].[taUpdateCreateCustomerRcd]
    @I_vCUSTNMBR char(15) = NULL,
    @I_vCUSTNAME char(64) = NULL,
    @I_vSTMTNAME char(64) = NULL,
    @I_vSHRTNAME char(15) = NULL,
    @I_vCUSTCLAS char(15) = NULL,
    @I_vCNTCPRSN char(60) = NULL,
    @I_vADRSCODE char(15) = NULL,
    @I_vPYMTRMID char(20) = NULL,
    @I_vSLPRSNID char(15) = NULL,
    @I_vSALSTERR char(15) = NULL,
    @I_vCURNCYID char(15) = NULL,
    @I_vPHNUMBR1 char(21) = NULL,
    @I_vTAXSCHID char(15) = NULL,
    @I_vINACTIVE tinyint = NULL,
    @I_vHOLD tinyint = NULL,
    @I_vCRLMTTYP smallint = NULL,
    @I_vCRLMTAMT numeric(19, 5) = NULL,
    @I_vUpdateIfExists tinyint = NULL,
    @O_iErrorState int = NULL OUTPUT,
    @oErrString varchar(255) = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @sCompanyID smallint;
    DECLARE @iStatus int;
    DECLARE @nNoteIndex numeric(19, 5);
    DECLARE @iNoteState int;
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taUpdateCreateCustomerRcd');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vCUSTNMBR', @I_vCUSTNMBR),
        (@call, N'I_vCUSTNAME', @I_vCUSTNAME),
        (@call, N'I_vSTMTNAME', @I_vSTMTNAME),
        (@call, N'I_vSHRTNAME', @I_vSHRTNAME),
        (@call, N'I_vCUSTCLAS', @I_vCUSTCLAS),
        (@call, N'I_vCNTCPRSN', @I_vCNTCPRSN),
        (@call, N'I_vADRSCODE', @I_vADRSCODE),
        (@call, N'I_vPYMTRMID', @I_vPYMTRMID),
        (@call, N'I_vSLPRSNID', @I_vSLPRSNID),
        (@call, N'I_vSALSTERR', @I_vSALSTERR),
        (@call, N'I_vCURNCYID', @I_vCURNCYID),
        (@call, N'I_vPHNUMBR1', @I_vPHNUMBR1),
        (@call, N'I_vTAXSCHID', @I_vTAXSCHID),
        (@call, N'I_vINACTIVE', @I_vINACTIVE),
        (@call, N'I_vHOLD', @I_vHOLD),
        (@call, N'I_vCRLMTTYP', @I_vCRLMTTYP),
        (@call, N'I_vCRLMTAMT', @I_vCRLMTAMT),
        (@call, N'I_vUpdateIfExists', @I_vUpdateIfExists);
    SET @O_iErrorState = 0;
    SET @oErrString = '';
    -- As GP's procedures do, across databases (the write role's grants): the company's id in the system database.
    SELECT @sCompanyID = [CMPANYID] FROM [DYNAMICS].[dbo].[SY01500] WHERE [INTERID] = DB_NAME();
    IF COALESCE(@I_vCURNCYID, '') <> ''
        AND NOT EXISTS (SELECT 1 FROM [DYNAMICS].[dbo].[MC40200] WHERE [CURNCYID] = @I_vCURNCYID)
    BEGIN
        SET @O_iErrorState = 1327;
        SET @oErrString = '1327';
        RETURN @O_iErrorState;
    END;
    IF COALESCE(@I_vCURNCYID, '') <> ''
        AND NOT EXISTS (SELECT 1 FROM [DYNAMICS].[dbo].[MC60100] WHERE [CURNCYID] = @I_vCURNCYID AND [CMPANYID] = @sCompanyID)
    BEGIN
        SET @O_iErrorState = 1305;
        SET @oErrString = '1305';
        RETURN @O_iErrorState;
    END;
    EXEC @iStatus = [DYNAMICS].[dbo].[tasmGetNextNoteIndex] @I_sCompanyID = @sCompanyID, @I_iSQLSessionID = 0, @I_noteincrement = 1,
        @O_mNoteIndex = @nNoteIndex OUTPUT, @O_iErrorState = @iNoteState OUTPUT;
    -- The one marked input the stand-in refuses, as eConnect refuses: an error state and codes.
    IF RTRIM(@I_vCUSTNAME) = 'STANDIN-REFUSE'
    BEGIN
        SET @O_iErrorState = 90001;
        SET @oErrString = '90001 90002';
        RETURN 0;
    END;
    INSERT INTO [dbo].[RM00101] (
        [CUSTNMBR], [CUSTNAME], [STMTNAME], [SHRTNAME], [CUSTCLAS], [CNTCPRSN], [ADRSCODE], [PYMTRMID], [SLPRSNID],
        [SALSTERR], [CURNCYID], [PHONE1], [TAXSCHID], [INACTIVE], [HOLD], [CRLMTTYP], [CRLMTAMT], [CREATDDT], [MODIFDT]
    )
    VALUES (
        @I_vCUSTNMBR, @I_vCUSTNAME, COALESCE(@I_vSTMTNAME, ''), COALESCE(@I_vSHRTNAME, ''), COALESCE(@I_vCUSTCLAS, ''),
        COALESCE(@I_vCNTCPRSN, ''), COALESCE(@I_vADRSCODE, ''), COALESCE(@I_vPYMTRMID, ''), COALESCE(@I_vSLPRSNID, ''),
        COALESCE(@I_vSALSTERR, ''), COALESCE(@I_vCURNCYID, ''), COALESCE(@I_vPHNUMBR1, ''), COALESCE(@I_vTAXSCHID, ''),
        COALESCE(@I_vINACTIVE, 0), COALESCE(@I_vHOLD, 0), COALESCE(@I_vCRLMTTYP, 0), COALESCE(@I_vCRLMTAMT, 0),
        CONVERT(date, GETDATE()), CONVERT(date, GETDATE())
    );
    INSERT INTO [dbo].[RM00103] ([CUSTNMBR]) VALUES (@I_vCUSTNMBR);
    RETURN 0;
END;
GO

CREATE OR ALTER PROCEDURE [dbo].[taCreateCustomerAddress]
    @I_vCUSTNMBR char(15) = NULL,
    @I_vADRSCODE char(15) = NULL,
    @I_vCNTCPRSN char(60) = NULL,
    @I_vADDRESS1 char(60) = NULL,
    @I_vADDRESS2 char(60) = NULL,
    @I_vADDRESS3 char(60) = NULL,
    @I_vCITY char(35) = NULL,
    @I_vSTATE char(29) = NULL,
    @I_vZIPCODE char(10) = NULL,
    @I_vCOUNTRY char(60) = NULL,
    @I_vPHNUMBR1 char(21) = NULL,
    @I_vSHIPMTHD char(15) = NULL,
    @I_vTAXSCHID char(15) = NULL,
    @I_vUpdateIfExists tinyint = NULL,
    @O_iErrorState int = NULL OUTPUT,
    @oErrString varchar(255) = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taCreateCustomerAddress');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vCUSTNMBR', @I_vCUSTNMBR),
        (@call, N'I_vADRSCODE', @I_vADRSCODE),
        (@call, N'I_vCNTCPRSN', @I_vCNTCPRSN),
        (@call, N'I_vADDRESS1', @I_vADDRESS1),
        (@call, N'I_vADDRESS2', @I_vADDRESS2),
        (@call, N'I_vADDRESS3', @I_vADDRESS3),
        (@call, N'I_vCITY', @I_vCITY),
        (@call, N'I_vSTATE', @I_vSTATE),
        (@call, N'I_vZIPCODE', @I_vZIPCODE),
        (@call, N'I_vCOUNTRY', @I_vCOUNTRY),
        (@call, N'I_vPHNUMBR1', @I_vPHNUMBR1),
        (@call, N'I_vSHIPMTHD', @I_vSHIPMTHD),
        (@call, N'I_vTAXSCHID', @I_vTAXSCHID),
        (@call, N'I_vUpdateIfExists', @I_vUpdateIfExists);
    SET @O_iErrorState = 0;
    SET @oErrString = '';
    INSERT INTO [dbo].[RM00102] (
        [CUSTNMBR], [ADRSCODE], [CNTCPRSN], [ADDRESS1], [ADDRESS2], [ADDRESS3], [CITY], [STATE], [ZIP], [COUNTRY],
        [PHONE1], [SHIPMTHD], [TAXSCHID], [CREATDDT], [MODIFDT]
    )
    VALUES (
        @I_vCUSTNMBR, @I_vADRSCODE, COALESCE(@I_vCNTCPRSN, ''), COALESCE(@I_vADDRESS1, ''), COALESCE(@I_vADDRESS2, ''),
        COALESCE(@I_vADDRESS3, ''), COALESCE(@I_vCITY, ''), COALESCE(@I_vSTATE, ''), COALESCE(@I_vZIPCODE, ''),
        COALESCE(@I_vCOUNTRY, ''), COALESCE(@I_vPHNUMBR1, ''), COALESCE(@I_vSHIPMTHD, ''), COALESCE(@I_vTAXSCHID, ''),
        CONVERT(date, GETDATE()), CONVERT(date, GETDATE())
    );
    RETURN 0;
END;
GO

CREATE OR ALTER PROCEDURE [dbo].[taUpdateCreateVendorRcd]
    @I_vVENDORID char(15) = NULL,
    @I_vVENDNAME char(64) = NULL,
    @I_vVNDCHKNM char(64) = NULL,
    @I_vVENDSHNM char(15) = NULL,
    @I_vVNDCLSID char(10) = NULL,
    @I_vVADDCDPR char(15) = NULL,
    @I_vPYMTRMID char(20) = NULL,
    @I_vCURNCYID char(15) = NULL,
    @I_vTXIDNMBR char(11) = NULL,
    @I_vTEN99TYPE smallint = NULL,
    @I_vPHNUMBR1 char(21) = NULL,
    @I_vVENDSTTS smallint = NULL,
    @I_vHOLD tinyint = NULL,
    @I_vUpdateIfExists tinyint = NULL,
    @O_iErrorState int = NULL OUTPUT,
    @oErrString varchar(255) = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @sCompanyID smallint;
    DECLARE @iStatus int;
    DECLARE @nNoteIndex numeric(19, 5);
    DECLARE @iNoteState int;
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taUpdateCreateVendorRcd');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vVENDORID', @I_vVENDORID),
        (@call, N'I_vVENDNAME', @I_vVENDNAME),
        (@call, N'I_vVNDCHKNM', @I_vVNDCHKNM),
        (@call, N'I_vVENDSHNM', @I_vVENDSHNM),
        (@call, N'I_vVNDCLSID', @I_vVNDCLSID),
        (@call, N'I_vVADDCDPR', @I_vVADDCDPR),
        (@call, N'I_vPYMTRMID', @I_vPYMTRMID),
        (@call, N'I_vCURNCYID', @I_vCURNCYID),
        (@call, N'I_vTXIDNMBR', @I_vTXIDNMBR),
        (@call, N'I_vTEN99TYPE', @I_vTEN99TYPE),
        (@call, N'I_vPHNUMBR1', @I_vPHNUMBR1),
        (@call, N'I_vVENDSTTS', @I_vVENDSTTS),
        (@call, N'I_vHOLD', @I_vHOLD),
        (@call, N'I_vUpdateIfExists', @I_vUpdateIfExists);
    SET @O_iErrorState = 0;
    SET @oErrString = '';
    -- As GP's procedures do, across databases (the write role's grants): the company's id in the system database.
    SELECT @sCompanyID = [CMPANYID] FROM [DYNAMICS].[dbo].[SY01500] WHERE [INTERID] = DB_NAME();
    IF COALESCE(@I_vCURNCYID, '') <> ''
        AND NOT EXISTS (SELECT 1 FROM [DYNAMICS].[dbo].[MC40200] WHERE [CURNCYID] = @I_vCURNCYID)
    BEGIN
        SET @O_iErrorState = 1327;
        SET @oErrString = '1327';
        RETURN @O_iErrorState;
    END;
    IF COALESCE(@I_vCURNCYID, '') <> ''
        AND NOT EXISTS (SELECT 1 FROM [DYNAMICS].[dbo].[MC60100] WHERE [CURNCYID] = @I_vCURNCYID AND [CMPANYID] = @sCompanyID)
    BEGIN
        SET @O_iErrorState = 1305;
        SET @oErrString = '1305';
        RETURN @O_iErrorState;
    END;
    EXEC @iStatus = [DYNAMICS].[dbo].[tasmGetNextNoteIndex] @I_sCompanyID = @sCompanyID, @I_iSQLSessionID = 0, @I_noteincrement = 1,
        @O_mNoteIndex = @nNoteIndex OUTPUT, @O_iErrorState = @iNoteState OUTPUT;
    INSERT INTO [dbo].[PM00200] (
        [VENDORID], [VENDNAME], [VNDCHKNM], [VENDSHNM], [VNDCLSID], [VADDCDPR], [PYMTRMID], [CURNCYID], [TXIDNMBR],
        [TEN99TYPE], [PHNUMBR1], [VENDSTTS], [HOLD], [CREATDDT], [MODIFDT]
    )
    VALUES (
        @I_vVENDORID, @I_vVENDNAME, COALESCE(@I_vVNDCHKNM, ''), COALESCE(@I_vVENDSHNM, ''), COALESCE(@I_vVNDCLSID, ''),
        COALESCE(@I_vVADDCDPR, ''), COALESCE(@I_vPYMTRMID, ''), COALESCE(@I_vCURNCYID, ''), COALESCE(@I_vTXIDNMBR, ''),
        COALESCE(@I_vTEN99TYPE, 1), COALESCE(@I_vPHNUMBR1, ''), COALESCE(@I_vVENDSTTS, 1), COALESCE(@I_vHOLD, 0),
        CONVERT(date, GETDATE()), CONVERT(date, GETDATE())
    );
    RETURN 0;
END;
GO

CREATE OR ALTER PROCEDURE [dbo].[taCreateVendorAddress]
    @I_vVENDORID char(15) = NULL,
    @I_vADRSCODE char(15) = NULL,
    @I_vVNDCNTCT char(60) = NULL,
    @I_vADDRESS1 char(60) = NULL,
    @I_vADDRESS2 char(60) = NULL,
    @I_vADDRESS3 char(60) = NULL,
    @I_vCITY char(35) = NULL,
    @I_vSTATE char(29) = NULL,
    @I_vZIPCODE char(10) = NULL,
    @I_vCOUNTRY char(60) = NULL,
    @I_vPHNUMBR1 char(21) = NULL,
    @I_vUpdateIfExists tinyint = NULL,
    @O_iErrorState int = NULL OUTPUT,
    @oErrString varchar(255) = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taCreateVendorAddress');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vVENDORID', @I_vVENDORID),
        (@call, N'I_vADRSCODE', @I_vADRSCODE),
        (@call, N'I_vVNDCNTCT', @I_vVNDCNTCT),
        (@call, N'I_vADDRESS1', @I_vADDRESS1),
        (@call, N'I_vADDRESS2', @I_vADDRESS2),
        (@call, N'I_vADDRESS3', @I_vADDRESS3),
        (@call, N'I_vCITY', @I_vCITY),
        (@call, N'I_vSTATE', @I_vSTATE),
        (@call, N'I_vZIPCODE', @I_vZIPCODE),
        (@call, N'I_vCOUNTRY', @I_vCOUNTRY),
        (@call, N'I_vPHNUMBR1', @I_vPHNUMBR1),
        (@call, N'I_vUpdateIfExists', @I_vUpdateIfExists);
    SET @O_iErrorState = 0;
    SET @oErrString = '';
    INSERT INTO [dbo].[PM00300] (
        [VENDORID], [ADRSCODE], [VNDCNTCT], [ADDRESS1], [ADDRESS2], [ADDRESS3], [CITY], [STATE], [ZIPCODE], [COUNTRY],
        [PHNUMBR1]
    )
    VALUES (
        @I_vVENDORID, @I_vADRSCODE, COALESCE(@I_vVNDCNTCT, ''), COALESCE(@I_vADDRESS1, ''), COALESCE(@I_vADDRESS2, ''),
        COALESCE(@I_vADDRESS3, ''), COALESCE(@I_vCITY, ''), COALESCE(@I_vSTATE, ''), COALESCE(@I_vZIPCODE, ''),
        COALESCE(@I_vCOUNTRY, ''), COALESCE(@I_vPHNUMBR1, '')
    );
    RETURN 0;
END;
GO

CREATE OR ALTER PROCEDURE [dbo].[taGetSopNumber]
    @I_tSOPTYPE tinyint = NULL,
    @I_cDOCID char(15) = NULL,
    @I_tInc_Dec tinyint = NULL,
    @O_vSopNumber char(21) = NULL OUTPUT,
    @O_iErrorState int = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @number varchar(21);
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taGetSopNumber');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_tSOPTYPE', @I_tSOPTYPE),
        (@call, N'I_cDOCID', @I_cDOCID),
        (@call, N'I_tInc_Dec', @I_tInc_Dec);
    SET @O_iErrorState = 0;
    -- As taGetSopNumber: fulfillment orders are numbered as invoices; the id's SOP40200 row, else the
    -- type's SOP40300 row (GP also tries the invoice id named in USDOCID1 first, which the stand-in
    -- leaves out); the whole table locked until the transaction ends (TABLOCKX HOLDLOCK).
    DECLARE @type tinyint = CASE WHEN @I_tSOPTYPE = 6 THEN 3 ELSE @I_tSOPTYPE END;
    DECLARE @fromType bit = 0;
    SELECT @number = RTRIM([SOPNUMBE])
    FROM [dbo].[SOP40200] WITH (TABLOCKX, HOLDLOCK)
    WHERE [SOPTYPE] = @type AND [DOCID] = @I_cDOCID;
    IF COALESCE(@number, '') = ''
    BEGIN
        SELECT @number = RTRIM([SOPNUMBE]) FROM [dbo].[SOP40300] WITH (TABLOCKX, HOLDLOCK) WHERE [SOPTYPE] = @type;
        SET @fromType = 1;
    END;
    IF COALESCE(@number, '') = ''
    BEGIN
        SET @O_iErrorState = 90010;
        RETURN 0;
    END;
    WHILE EXISTS (SELECT 1 FROM [dbo].[SOP10100] WHERE [SOPTYPE] = @I_tSOPTYPE AND [SOPNUMBE] = @number)
        OR EXISTS (SELECT 1 FROM [dbo].[SOP30200] WHERE [SOPTYPE] = @I_tSOPTYPE AND [SOPNUMBE] = @number)
        SET @number = [dbo].[gpgw_standin_NextNumber](@number);
    IF @fromType = 1
        UPDATE [dbo].[SOP40300] SET [SOPNUMBE] = [dbo].[gpgw_standin_NextNumber](@number) WHERE [SOPTYPE] = @type;
    ELSE
        UPDATE [dbo].[SOP40200]
        SET [SOPNUMBE] = [dbo].[gpgw_standin_NextNumber](@number)
        WHERE [SOPTYPE] = @type AND [DOCID] = @I_cDOCID;
    SET @O_vSopNumber = @number;
    RETURN 0;
END;
GO

CREATE OR ALTER PROCEDURE [dbo].[taSopLineIvcInsert]
    @I_vSOPTYPE smallint = NULL,
    @I_vSOPNUMBE char(21) = NULL,
    @I_vCUSTNMBR char(15) = NULL,
    @I_vDOCDATE datetime = NULL,
    @I_vLOCNCODE char(10) = NULL,
    @I_vITEMNMBR char(30) = NULL,
    @I_vITEMDESC char(100) = NULL,
    @I_vQUANTITY numeric(19, 5) = NULL,
    @I_vUNITPRCE numeric(19, 5) = NULL,
    @I_vXTNDPRCE numeric(19, 5) = NULL,
    @I_vDOCID char(15) = NULL,
    @I_vUOFM char(8) = NULL,
    @I_vPRCLEVEL char(10) = NULL,
    @I_vDEFEXTPRICE int = NULL,
    @I_vQTYONHND numeric(19, 5) = NULL,
    @I_vQTYRTRND numeric(19, 5) = NULL,
    @I_vQTYINUSE numeric(19, 5) = NULL,
    @I_vQTYINSVC numeric(19, 5) = NULL,
    @I_vQTYDMGED numeric(19, 5) = NULL,
    @O_iErrorState int = NULL OUTPUT,
    @oErrString varchar(255) = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @sCompanyID smallint;
    DECLARE @iStatus int;
    DECLARE @EXPRINST tinyint;
    DECLARE @iExists int;
    DECLARE @iInserted int;
    DECLARE @iLockState int;
    DECLARE @EDITDECPLCUR int = 2;
    DECLARE @DECPLCUR smallint;
    DECLARE @ITEMTYPE smallint;
    DECLARE @UOMSCHDL char(10);
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taSopLineIvcInsert');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vSOPTYPE', @I_vSOPTYPE),
        (@call, N'I_vSOPNUMBE', @I_vSOPNUMBE),
        (@call, N'I_vCUSTNMBR', @I_vCUSTNMBR),
        (@call, N'I_vDOCDATE', @I_vDOCDATE),
        (@call, N'I_vLOCNCODE', @I_vLOCNCODE),
        (@call, N'I_vITEMNMBR', @I_vITEMNMBR),
        (@call, N'I_vITEMDESC', @I_vITEMDESC),
        (@call, N'I_vQUANTITY', @I_vQUANTITY),
        (@call, N'I_vUNITPRCE', @I_vUNITPRCE),
        (@call, N'I_vXTNDPRCE', @I_vXTNDPRCE),
        (@call, N'I_vDOCID', @I_vDOCID),
        (@call, N'I_vUOFM', @I_vUOFM),
        (@call, N'I_vPRCLEVEL', @I_vPRCLEVEL),
        (@call, N'I_vDEFEXTPRICE', @I_vDEFEXTPRICE),
        (@call, N'I_vQTYONHND', @I_vQTYONHND),
        (@call, N'I_vQTYRTRND', @I_vQTYRTRND),
        (@call, N'I_vQTYINUSE', @I_vQTYINUSE),
        (@call, N'I_vQTYINSVC', @I_vQTYINSVC),
        (@call, N'I_vQTYDMGED', @I_vQTYDMGED);
    SET @O_iErrorState = 0;
    SET @oErrString = '';
    -- As GP's procedures do, across databases (the write role's grants): the company's id in the system database.
    SELECT @sCompanyID = [CMPANYID] FROM [DYNAMICS].[dbo].[SY01500] WHERE [INTERID] = DB_NAME();
    SELECT @EXPRINST = [EXPRINST] FROM [DYNAMICS].[dbo].[SY05501] WHERE [CMPANYID] = @sCompanyID;
    -- GP marks the document being edited in tempdb..DEX_LOCK through taDEXLOCKS, and releases it at the end.
    EXEC @iStatus = [DYNAMICS].[dbo].[taDEXLOCKS] @I_vOperation = 1, @I_vtable_path_name = 'SOP10100', @I_vrow_id = 0,
        @O_oExists = @iExists OUTPUT, @O_oInsertStatus = @iInserted OUTPUT, @O_iErrorState = @iLockState OUTPUT;
    -- GP's amount checks (taSopLineIvcInsert line 5). The extended price is rounded to the document
    -- currency's decimals (@EDITDECPLCUR, MC40200.DECPLCUR - 1; here the customer's currency) and computed
    -- by GP when DEFEXTPRICE = 1; the unit price to the item's currency decimals (GP: IV00105, which
    -- the demo has not; here IV00101.DECPLCUR). GP defaults XTNDPRCE and the quantity buckets to 0.
    SELECT @EDITDECPLCUR = m.[DECPLCUR] - 1
    FROM [dbo].[RM00101] AS c
    INNER JOIN [DYNAMICS].[dbo].[MC40200] AS m ON m.[CURNCYID] = c.[CURNCYID]
    WHERE c.[CUSTNMBR] = @I_vCUSTNMBR;
    -- The unit and price level as GP settles them: the item's selling unit, the customer's price level
    -- when it prices the item in the unit, else the item's (GP also tries RM40101's, not kept here).
    SELECT @DECPLCUR = [DECPLCUR], @ITEMTYPE = [ITEMTYPE], @UOMSCHDL = [UOMSCHDL],
        @I_vUOFM = CASE WHEN COALESCE(@I_vUOFM, '') = '' THEN [SELNGUOM] ELSE @I_vUOFM END
    FROM [dbo].[IV00101] WHERE [ITEMNMBR] = @I_vITEMNMBR;
    IF COALESCE(@I_vPRCLEVEL, '') = ''
        SELECT @I_vPRCLEVEL = c.[PRCLEVEL] FROM [dbo].[RM00101] AS c
        WHERE c.[CUSTNMBR] = @I_vCUSTNMBR
            AND EXISTS (SELECT 1 FROM [dbo].[IV00108] AS p WHERE p.[ITEMNMBR] = @I_vITEMNMBR AND p.[PRCLEVEL] = c.[PRCLEVEL]
                AND p.[UOFM] = @I_vUOFM AND p.[CURNCYID] IN (c.[CURNCYID], ''));
    IF COALESCE(@I_vPRCLEVEL, '') = ''
        SELECT @I_vPRCLEVEL = [PRCLEVEL] FROM [dbo].[IV00101] WHERE [ITEMNMBR] = @I_vITEMNMBR;
    -- GP's unit and price list checks (taSopLineIvcInsert line 5): 5313, 928, 9177.
    IF NOT EXISTS (SELECT 1 FROM [dbo].[IV40202] WHERE [UOFM] = @I_vUOFM AND [UOMSCHDL] = @UOMSCHDL)
        SET @O_iErrorState = 5313;
    ELSE IF @I_vPRCLEVEL <> '' AND NOT EXISTS (SELECT 1 FROM [dbo].[IV40800] WHERE [PRCLEVEL] = @I_vPRCLEVEL)
        SET @O_iErrorState = 928;
    ELSE IF @I_vPRCLEVEL <> '' AND NOT EXISTS (
        SELECT 1 FROM [dbo].[IV00108] AS p
        INNER JOIN [dbo].[RM00101] AS c ON c.[CUSTNMBR] = @I_vCUSTNMBR
        WHERE p.[ITEMNMBR] = @I_vITEMNMBR AND p.[PRCLEVEL] = @I_vPRCLEVEL AND p.[UOFM] = @I_vUOFM
            AND p.[CURNCYID] IN (c.[CURNCYID], '')
    )
        SET @O_iErrorState = 9177;
    IF @O_iErrorState <> 0
    BEGIN
        SET @oErrString = CAST(@O_iErrorState AS varchar(255));
        RETURN @O_iErrorState;
    END;
    IF COALESCE(@I_vDEFEXTPRICE, 0) = 1 SET @I_vXTNDPRCE = ROUND(@I_vQUANTITY * @I_vUNITPRCE, @EDITDECPLCUR);
    SET @I_vXTNDPRCE = COALESCE(@I_vXTNDPRCE, 0);
    IF @DECPLCUR > 0 AND ROUND(@I_vUNITPRCE, @DECPLCUR - 1) <> @I_vUNITPRCE
        SET @O_iErrorState = 4646;
    ELSE IF ROUND(@I_vXTNDPRCE, @EDITDECPLCUR) <> @I_vXTNDPRCE
        SET @O_iErrorState = 4647;
    -- A return's quantity must be split into GP's buckets (error 183; Inventory is taken as registered).
    ELSE IF @I_vSOPTYPE = 4 AND COALESCE(@ITEMTYPE, 1) NOT IN (4, 5, 6)
        AND @I_vQUANTITY <> COALESCE(@I_vQTYINSVC, 0) + COALESCE(@I_vQTYINUSE, 0) + COALESCE(@I_vQTYDMGED, 0)
        + COALESCE(@I_vQTYRTRND, 0) + COALESCE(@I_vQTYONHND, 0)
        SET @O_iErrorState = 183;
    IF @O_iErrorState <> 0
    BEGIN
        SET @oErrString = CAST(@O_iErrorState AS varchar(255));
        RETURN @O_iErrorState;
    END;
    -- GP numbers lines 16384 apart; the item's description when the line has none.
    INSERT INTO [dbo].[SOP10200] (
        [SOPTYPE], [SOPNUMBE], [LNITMSEQ], [CMPNTSEQ], [ITEMNMBR], [ITEMDESC], [QUANTITY], [UNITPRCE], [XTNDPRCE],
        [LOCNCODE], [UOFM], [PRCLEVEL]
    )
    SELECT
        @I_vSOPTYPE, @I_vSOPNUMBE,
        COALESCE((
            SELECT MAX(l.[LNITMSEQ]) FROM [dbo].[SOP10200] AS l
            WHERE l.[SOPTYPE] = @I_vSOPTYPE AND l.[SOPNUMBE] = @I_vSOPNUMBE
        ), 0) + 16384,
        0, @I_vITEMNMBR,
        COALESCE(@I_vITEMDESC, (SELECT i.[ITEMDESC] FROM [dbo].[IV00101] AS i WHERE i.[ITEMNMBR] = @I_vITEMNMBR), ''),
        @I_vQUANTITY, @I_vUNITPRCE, @I_vXTNDPRCE, COALESCE(@I_vLOCNCODE, ''), @I_vUOFM, @I_vPRCLEVEL;
    EXEC @iStatus = [DYNAMICS].[dbo].[taDEXLOCKS] @I_vOperation = 3, @I_vtable_path_name = 'SOP10100', @I_vrow_id = 0,
        @O_oExists = @iExists OUTPUT, @O_oInsertStatus = @iInserted OUTPUT, @O_iErrorState = @iLockState OUTPUT;
    RETURN 0;
END;
GO

CREATE OR ALTER PROCEDURE [dbo].[taSopHdrIvcInsert]
    @I_vSOPTYPE smallint = NULL,
    @I_vSOPNUMBE char(21) = NULL,
    @I_vDOCID char(15) = NULL,
    @I_vCUSTNMBR char(15) = NULL,
    @I_vDOCDATE datetime = NULL,
    @I_vBACHNUMB char(15) = NULL,
    @I_vLOCNCODE char(10) = NULL,
    @I_vCSTPONBR char(20) = NULL,
    @I_vTAXAMNT numeric(19, 5) = NULL,
    @I_vFREIGHT numeric(19, 5) = NULL,
    @I_vSUBTOTAL numeric(19, 5) = NULL,
    @I_vDOCAMNT numeric(19, 5) = NULL,
    @I_vUpdateExisting tinyint = NULL,
    @I_vDEFPRICING tinyint = NULL,
    @I_vCREATETAXES smallint = NULL,
    @I_vDEFTAXSCHDS smallint = NULL,
    @O_iErrorState int = NULL OUTPUT,
    @oErrString varchar(255) = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @subtotal numeric(19, 5);
    DECLARE @total numeric(19, 5);
    DECLARE @sCompanyID smallint;
    DECLARE @iStatus int;
    DECLARE @nNoteIndex numeric(19, 5);
    DECLARE @iNoteState int;
    DECLARE @iReconcile int;
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taSopHdrIvcInsert');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vSOPTYPE', @I_vSOPTYPE),
        (@call, N'I_vSOPNUMBE', @I_vSOPNUMBE),
        (@call, N'I_vDOCID', @I_vDOCID),
        (@call, N'I_vCUSTNMBR', @I_vCUSTNMBR),
        (@call, N'I_vDOCDATE', @I_vDOCDATE),
        (@call, N'I_vBACHNUMB', @I_vBACHNUMB),
        (@call, N'I_vLOCNCODE', @I_vLOCNCODE),
        (@call, N'I_vCSTPONBR', @I_vCSTPONBR),
        (@call, N'I_vTAXAMNT', @I_vTAXAMNT),
        (@call, N'I_vFREIGHT', @I_vFREIGHT),
        (@call, N'I_vSUBTOTAL', @I_vSUBTOTAL),
        (@call, N'I_vDOCAMNT', @I_vDOCAMNT),
        (@call, N'I_vUpdateExisting', @I_vUpdateExisting),
        (@call, N'I_vDEFPRICING', @I_vDEFPRICING),
        (@call, N'I_vCREATETAXES', @I_vCREATETAXES),
        (@call, N'I_vDEFTAXSCHDS', @I_vDEFTAXSCHDS);
    SET @O_iErrorState = 0;
    SET @oErrString = '';
    -- GP's tax flags (taSopHdrIvcInsert line 5): each 0 or 1 (2212, 2213), and a tax amount passed
    -- while GP computes the taxes is refused (866). GP's tax engine (taSopTaxEngine) then computes the
    -- tax from the schedules; the demo has no tax schedule details, so the stand-in's tax stays zero.
    IF COALESCE(@I_vCREATETAXES, 0) NOT IN (0, 1)
    BEGIN
        SET @O_iErrorState = 2212;
        SET @oErrString = '2212';
        RETURN @O_iErrorState;
    END;
    IF COALESCE(@I_vDEFTAXSCHDS, 0) NOT IN (0, 1)
    BEGIN
        SET @O_iErrorState = 2213;
        SET @oErrString = '2213';
        RETURN @O_iErrorState;
    END;
    IF @I_vCREATETAXES = 1 AND COALESCE(@I_vTAXAMNT, 0) <> 0
    BEGIN
        SET @O_iErrorState = 866;
        SET @oErrString = '866';
        RETURN @O_iErrorState;
    END;
    -- As GP's procedures do, across databases (the write role's grants): the company's id in the system database.
    SELECT @sCompanyID = [CMPANYID] FROM [DYNAMICS].[dbo].[SY01500] WHERE [INTERID] = DB_NAME();
    -- GP's batch procedure (taCreateUpdateBatchHeaderRcd) looks for a bank reconcile in progress before
    -- it touches a Sales Entry batch; the stand-in reads the same row and goes on.
    SELECT @iReconcile = COUNT(*) FROM [DYNAMICS].[dbo].[SY00800]
    WHERE [BCHSOURC] = 'Utility' AND [TRXSOURC] = 'Reconcile' AND [CMPNYNAM] = (SELECT [CMPNYNAM] FROM [DYNAMICS].[dbo].[SY01500] WHERE [INTERID] = DB_NAME());
    EXEC @iStatus = [DYNAMICS].[dbo].[tasmGetNextNoteIndex] @I_sCompanyID = @sCompanyID, @I_iSQLSessionID = 0, @I_noteincrement = 1,
        @O_mNoteIndex = @nNoteIndex OUTPUT, @O_iErrorState = @iNoteState OUTPUT;
    -- The header sums the lines inserted before it, as taSopHdrIvcInsert does.
    SELECT @subtotal = COALESCE(SUM([XTNDPRCE]), 0)
    FROM [dbo].[SOP10200]
    WHERE [SOPTYPE] = @I_vSOPTYPE AND [SOPNUMBE] = @I_vSOPNUMBE;
    -- GP's header check (taSopHdrIvcInsert line 5): the subtotal is the lines' sum, taken as such with
    -- DEFPRICING = 1, else refused when it differs (error 67); the total follows it.
    IF COALESCE(@I_vDEFPRICING, 0) <> 1 AND @subtotal <> COALESCE(@I_vSUBTOTAL, 0)
    BEGIN
        SET @O_iErrorState = 67;
        SET @oErrString = '67';
        RETURN @O_iErrorState;
    END;
    SET @total = @subtotal + COALESCE(@I_vTAXAMNT, 0) + COALESCE(@I_vFREIGHT, 0);
    INSERT INTO [dbo].[SOP10100] (
        [SOPTYPE], [SOPNUMBE], [DOCID], [DOCDATE], [LOCNCODE], [BCHSOURC], [BACHNUMB], [CUSTNMBR], [CUSTNAME],
        [CSTPONBR], [SUBTOTAL], [FRTAMNT], [TAXAMNT], [DOCAMNT], [CURNCYID], [CREATDDT], [MODIFDT]
    )
    SELECT
        @I_vSOPTYPE, @I_vSOPNUMBE, @I_vDOCID, @I_vDOCDATE, COALESCE(@I_vLOCNCODE, ''), 'Sales Entry', @I_vBACHNUMB,
        @I_vCUSTNMBR, c.[CUSTNAME], COALESCE(@I_vCSTPONBR, ''), @subtotal, COALESCE(@I_vFREIGHT, 0),
        COALESCE(@I_vTAXAMNT, 0), @total, c.[CURNCYID], CONVERT(date, GETDATE()), CONVERT(date, GETDATE())
    FROM [dbo].[RM00101] AS c
    WHERE c.[CUSTNMBR] = @I_vCUSTNMBR;
    EXEC [dbo].[gpgw_standin_AddToBatch] 'Sales Entry', @I_vBACHNUMB, 3, @total;
    RETURN 0;
END;
GO

-- GP's receivables numbering (taGetPaymentNumber): RM40401's number for the type is the one taken, the
-- next one is stored; numbers already used are skipped. GP looks them up in RM00401 (its keys of every
-- receivables document), which the demo does not have: the stand-in looks in RM10301, RM20101 and RM30101.
-- The whole table is locked until the transaction ends (TABLOCKX HOLDLOCK), as GP locks it.
CREATE OR ALTER PROCEDURE [dbo].[taGetPaymentNumber]
    @I_vDOCTYPE tinyint = NULL,
    @I_vInc_Dec tinyint = NULL,
    @O_vDOCNumber varchar(21) = NULL OUTPUT,
    @O_iErrorState int = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @number varchar(21);
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taGetPaymentNumber');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vDOCTYPE', @I_vDOCTYPE),
        (@call, N'I_vInc_Dec', @I_vInc_Dec);
    SET @O_iErrorState = 0;
    SET @O_vDOCNumber = '';
    IF @I_vDOCTYPE IS NULL OR @I_vInc_Dec IS NULL
    BEGIN
        SET @O_iErrorState = 44;
        RETURN @O_iErrorState;
    END;
    SELECT @number = RTRIM([DOCNUMBR]) FROM [dbo].[RM40401] WITH (TABLOCKX, HOLDLOCK) WHERE [RMDTYPAL] = @I_vDOCTYPE;
    IF @number IS NULL
    BEGIN
        SET @O_iErrorState = 124;
        RETURN @O_iErrorState;
    END;
    WHILE EXISTS (SELECT 1 FROM [dbo].[RM10301] WHERE [RMDTYPAL] = @I_vDOCTYPE AND [DOCNUMBR] = @number)
        OR EXISTS (SELECT 1 FROM [dbo].[RM20101] WHERE [RMDTYPAL] = @I_vDOCTYPE AND [DOCNUMBR] = @number)
        OR EXISTS (SELECT 1 FROM [dbo].[RM30101] WHERE [RMDTYPAL] = @I_vDOCTYPE AND [DOCNUMBR] = @number)
        SET @number = [dbo].[gpgw_standin_NextNumber](@number);
    UPDATE [dbo].[RM40401] SET [DOCNUMBR] = [dbo].[gpgw_standin_NextNumber](@number) WHERE [RMDTYPAL] = @I_vDOCTYPE;
    SET @O_vDOCNumber = @number;
    RETURN 0;
END;
GO

-- A receivables distribution line, as taRMDistribution inserts it (docs/decisions.md#distribution-lines):
-- the account by its number (1340 when unknown), one side above zero (1342, 1343, 1344), numbered
-- max + 16384 within the document, unposted (PSTGSTUS 3, DCSTATUS 1).
CREATE OR ALTER PROCEDURE [dbo].[taRMDistribution]
    @I_vRMDTYPAL smallint = NULL,
    @I_vDOCNUMBR char(20) = NULL,
    @I_vCUSTNMBR char(15) = NULL,
    @I_vDISTTYPE smallint = NULL,
    @I_vACTNUMST char(75) = NULL,
    @I_vDEBITAMT numeric(19, 5) = NULL,
    @I_vCRDTAMNT numeric(19, 5) = NULL,
    @I_vDistRef char(30) = NULL,
    @O_iErrorState int = NULL OUTPUT,
    @oErrString varchar(255) = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @account int;
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taRMDistribution');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vRMDTYPAL', @I_vRMDTYPAL),
        (@call, N'I_vDOCNUMBR', @I_vDOCNUMBR),
        (@call, N'I_vCUSTNMBR', @I_vCUSTNMBR),
        (@call, N'I_vDISTTYPE', @I_vDISTTYPE),
        (@call, N'I_vACTNUMST', @I_vACTNUMST),
        (@call, N'I_vDEBITAMT', @I_vDEBITAMT),
        (@call, N'I_vCRDTAMNT', @I_vCRDTAMNT),
        (@call, N'I_vDistRef', @I_vDistRef);
    SET @O_iErrorState = 0;
    SET @oErrString = '';
    SELECT @account = [ACTINDX] FROM [dbo].[GL00105] WHERE [ACTNUMST] = @I_vACTNUMST;
    IF @account IS NULL
        SET @O_iErrorState = 1340;
    ELSE IF COALESCE(@I_vDEBITAMT, 0) > 0 AND COALESCE(@I_vCRDTAMNT, 0) > 0
        SET @O_iErrorState = 1342;
    ELSE IF COALESCE(@I_vDEBITAMT, 0) < 0 OR COALESCE(@I_vCRDTAMNT, 0) < 0
        SET @O_iErrorState = 1343;
    ELSE IF COALESCE(@I_vDEBITAMT, 0) = 0 AND COALESCE(@I_vCRDTAMNT, 0) = 0
        SET @O_iErrorState = 1344;
    IF @O_iErrorState <> 0
    BEGIN
        SET @oErrString = CAST(@O_iErrorState AS varchar(255));
        RETURN @O_iErrorState;
    END;
    INSERT INTO [dbo].[RM10101] (
        [TRXSORCE], [POSTED], [PSTGSTUS], [DOCNUMBR], [DCSTATUS], [DISTTYPE], [RMDTYPAL], [SEQNUMBR], [CUSTNMBR],
        [DSTINDX], [DEBITAMT], [CRDTAMNT], [USERID], [DistRef]
    )
    SELECT
        '', 0, 3, @I_vDOCNUMBR, 1, @I_vDISTTYPE, @I_vRMDTYPAL,
        COALESCE((
            SELECT MAX(d.[SEQNUMBR]) FROM [dbo].[RM10101] AS d WHERE d.[RMDTYPAL] = @I_vRMDTYPAL AND d.[DOCNUMBR] = @I_vDOCNUMBR
        ), 0) + 16384,
        @I_vCUSTNMBR, @account, COALESCE(@I_vDEBITAMT, 0), COALESCE(@I_vCRDTAMNT, 0), '', COALESCE(@I_vDistRef, '');
    RETURN 0;
END;
GO

-- A payables distribution line, as taPMDistribution inserts it: the account by its number (769 when
-- unknown, 9001 when inactive), not both sides (772), not negative (739), numbered max + 16384.
CREATE OR ALTER PROCEDURE [dbo].[taPMDistribution]
    @I_vDOCTYPE smallint = NULL,
    @I_vVCHRNMBR char(17) = NULL,
    @I_vVENDORID char(15) = NULL,
    @I_vDISTTYPE smallint = NULL,
    @I_vACTNUMST char(75) = NULL,
    @I_vDEBITAMT numeric(19, 5) = NULL,
    @I_vCRDTAMNT numeric(19, 5) = NULL,
    @I_vDistRef char(30) = NULL,
    @O_iErrorState int = NULL OUTPUT,
    @oErrString varchar(255) = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @account int;
    DECLARE @active tinyint;
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taPMDistribution');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vDOCTYPE', @I_vDOCTYPE),
        (@call, N'I_vVCHRNMBR', @I_vVCHRNMBR),
        (@call, N'I_vVENDORID', @I_vVENDORID),
        (@call, N'I_vDISTTYPE', @I_vDISTTYPE),
        (@call, N'I_vACTNUMST', @I_vACTNUMST),
        (@call, N'I_vDEBITAMT', @I_vDEBITAMT),
        (@call, N'I_vCRDTAMNT', @I_vCRDTAMNT),
        (@call, N'I_vDistRef', @I_vDistRef);
    SET @O_iErrorState = 0;
    SET @oErrString = '';
    SELECT @account = n.[ACTINDX], @active = a.[ACTIVE]
    FROM [dbo].[GL00105] AS n
    INNER JOIN [dbo].[GL00100] AS a ON a.[ACTINDX] = n.[ACTINDX]
    WHERE n.[ACTNUMST] = @I_vACTNUMST;
    IF @account IS NULL
        SET @O_iErrorState = 769;
    ELSE IF @active = 0
        SET @O_iErrorState = 9001;
    ELSE IF COALESCE(@I_vDEBITAMT, 0) > 0 AND COALESCE(@I_vCRDTAMNT, 0) > 0
        SET @O_iErrorState = 772;
    ELSE IF COALESCE(@I_vDEBITAMT, 0) < 0 OR COALESCE(@I_vCRDTAMNT, 0) < 0
        SET @O_iErrorState = 739;
    IF @O_iErrorState <> 0
    BEGIN
        SET @oErrString = CAST(@O_iErrorState AS varchar(255));
        RETURN @O_iErrorState;
    END;
    INSERT INTO [dbo].[PM10100] (
        [VCHRNMBR], [DSTSQNUM], [CNTRLTYP], [CRDTAMNT], [DEBITAMT], [DSTINDX], [DISTTYPE], [USERID], [VENDORID],
        [TRXSORCE], [INTERID], [XCHGRATE], [APTVCHNM], [SPCLDIST], [DistRef]
    )
    SELECT
        @I_vVCHRNMBR,
        COALESCE((
            SELECT MAX(d.[DSTSQNUM]) FROM [dbo].[PM10100] AS d WHERE d.[VCHRNMBR] = @I_vVCHRNMBR AND d.[CNTRLTYP] = 0
        ), 0) + 16384,
        0, COALESCE(@I_vCRDTAMNT, 0), COALESCE(@I_vDEBITAMT, 0), @account, @I_vDISTTYPE, '', @I_vVENDORID,
        '', DB_NAME(), 1, '', 0, COALESCE(@I_vDistRef, '');
    RETURN 0;
END;
GO

CREATE OR ALTER PROCEDURE [dbo].[taRMTransaction]
    @I_vRMDTYPAL smallint = NULL,
    @I_vDOCNUMBR char(20) = NULL,
    @I_vCUSTNMBR char(15) = NULL,
    @I_vDOCDATE datetime = NULL,
    @I_vDUEDATE datetime = NULL,
    @I_vSLSAMNT numeric(19, 5) = NULL,
    @I_vTAXAMNT numeric(19, 5) = NULL,
    @I_vFRTAMNT numeric(19, 5) = NULL,
    @I_vDOCDESCR char(30) = NULL,
    @I_vBACHNUMB char(15) = NULL,
    @I_vCURNCYID char(15) = NULL,
    @I_vDOCAMNT numeric(19, 5) = NULL,
    @I_vCREATEDIST smallint = NULL,
    @O_iErrorState int = NULL OUTPUT,
    @oErrString varchar(255) = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @sCompanyID smallint;
    DECLARE @iStatus int;
    DECLARE @nNoteIndex numeric(19, 5);
    DECLARE @iNoteState int;
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taRMTransaction');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vRMDTYPAL', @I_vRMDTYPAL),
        (@call, N'I_vDOCNUMBR', @I_vDOCNUMBR),
        (@call, N'I_vCUSTNMBR', @I_vCUSTNMBR),
        (@call, N'I_vDOCDATE', @I_vDOCDATE),
        (@call, N'I_vDUEDATE', @I_vDUEDATE),
        (@call, N'I_vSLSAMNT', @I_vSLSAMNT),
        (@call, N'I_vTAXAMNT', @I_vTAXAMNT),
        (@call, N'I_vFRTAMNT', @I_vFRTAMNT),
        (@call, N'I_vDOCDESCR', @I_vDOCDESCR),
        (@call, N'I_vBACHNUMB', @I_vBACHNUMB),
        (@call, N'I_vCURNCYID', @I_vCURNCYID),
        (@call, N'I_vDOCAMNT', @I_vDOCAMNT),
        (@call, N'I_vCREATEDIST', @I_vCREATEDIST);
    SET @O_iErrorState = 0;
    SET @oErrString = '';
    -- As GP's procedures do, across databases (the write role's grants): the company's id in the system database.
    SELECT @sCompanyID = [CMPANYID] FROM [DYNAMICS].[dbo].[SY01500] WHERE [INTERID] = DB_NAME();
    IF COALESCE(@I_vCURNCYID, '') <> ''
        AND NOT EXISTS (SELECT 1 FROM [DYNAMICS].[dbo].[MC40200] WHERE [CURNCYID] = @I_vCURNCYID)
    BEGIN
        SET @O_iErrorState = 1327;
        SET @oErrString = '1327';
        RETURN @O_iErrorState;
    END;
    EXEC @iStatus = [DYNAMICS].[dbo].[tasmGetNextNoteIndex] @I_sCompanyID = @sCompanyID, @I_iSQLSessionID = 0, @I_noteincrement = 1,
        @O_mNoteIndex = @nNoteIndex OUTPUT, @O_iErrorState = @iNoteState OUTPUT;
    -- The work table numbers types its own way (1→1, 3→2, … 8→7), and keys on the first 17 characters.
    INSERT INTO [dbo].[RM10301] (
        [DOCTYPE], [RMDTYPAL], [RMDNUMWK], [DOCNUMBR], [DOCDESCR], [DOCDATE], [BACHNUMB], [BCHSOURC], [CUSTNMBR],
        [CUSTNAME], [SLSAMNT], [FRTAMNT], [TAXAMNT], [DOCAMNT], [PYMTRMID], [DUEDATE], [CURNCYID], [LSTEDTDT]
    )
    SELECT
        CASE WHEN @I_vRMDTYPAL = 1 THEN 1 ELSE @I_vRMDTYPAL - 1 END, @I_vRMDTYPAL, LEFT(@I_vDOCNUMBR, 17),
        @I_vDOCNUMBR, COALESCE(@I_vDOCDESCR, ''), @I_vDOCDATE, @I_vBACHNUMB, 'RM_Sales', @I_vCUSTNMBR, c.[CUSTNAME],
        @I_vSLSAMNT, COALESCE(@I_vFRTAMNT, 0), COALESCE(@I_vTAXAMNT, 0), @I_vDOCAMNT, c.[PYMTRMID],
        COALESCE(@I_vDUEDATE, '19000101'), COALESCE(@I_vCURNCYID, c.[CURNCYID]), CONVERT(date, GETDATE())
    FROM [dbo].[RM00101] AS c
    WHERE c.[CUSTNMBR] = @I_vCUSTNMBR;
    EXEC [dbo].[gpgw_standin_AddToBatch] 'RM_Sales', @I_vBACHNUMB, 3, @I_vDOCAMNT;
    RETURN 0;
END;
GO

CREATE OR ALTER PROCEDURE [dbo].[taGetPMNextVoucherNumber]
    @O_vCNTRLNUM char(21) = NULL OUTPUT,
    @I_sCNTRLTYP smallint = NULL,
    @O_iErrorState int = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @voucher varchar(21);
    DECLARE @iStatus int;
    DECLARE @iConstant int;
    DECLARE @iConstantState int;
    DECLARE @cDBName char(5) = DB_NAME();
    DECLARE @vAlignment varchar(255);
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taGetPMNextVoucherNumber');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_sCNTRLTYP', @I_sCNTRLTYP);
    SET @O_iErrorState = 0;
    -- As GP's: its numbering constants and the alignment texts, from the system database.
    EXEC @iStatus = [DYNAMICS].[dbo].[smGetConstantInt] 'VOUCHER_NUMBER_CONTROL_TYPE', @iConstant OUTPUT, @iConstantState OUTPUT;
    EXEC @iStatus = [DYNAMICS].[dbo].[smGetMsgString] 11047, @cDBName, @vAlignment OUTPUT, @iConstantState OUTPUT;
    SELECT @voucher = RTRIM([NTVCHNUM]) FROM [dbo].[PM40100] WITH (TABLOCKX, HOLDLOCK) WHERE [UNIQKEY] = '1';
    IF @voucher IS NULL
    BEGIN
        SET @O_iErrorState = 90011;
        RETURN 0;
    END;
    WHILE EXISTS (SELECT 1 FROM [dbo].[PM10000] WHERE [VCHNUMWK] = @voucher)
        OR EXISTS (SELECT 1 FROM [dbo].[PM20000] WHERE [VCHRNMBR] = @voucher)
        OR EXISTS (SELECT 1 FROM [dbo].[PM30200] WHERE [VCHRNMBR] = @voucher)
        SET @voucher = [dbo].[gpgw_standin_NextNumber](@voucher);
    UPDATE [dbo].[PM40100] SET [NTVCHNUM] = [dbo].[gpgw_standin_NextNumber](@voucher) WHERE [UNIQKEY] = '1';
    SET @O_vCNTRLNUM = @voucher;
    RETURN 0;
END;
GO

CREATE OR ALTER PROCEDURE [dbo].[taPMTransactionInsert]
    @I_vDOCTYPE smallint = NULL,
    @I_vVCHNUMWK char(17) = NULL,
    @I_vDOCNUMBR char(20) = NULL,
    @I_vVENDORID char(15) = NULL,
    @I_vDOCDATE datetime = NULL,
    @I_vDUEDATE datetime = NULL,
    @I_vPRCHAMNT numeric(19, 5) = NULL,
    @I_vTAXAMNT numeric(19, 5) = NULL,
    @I_vTEN99AMNT numeric(19, 5) = NULL,
    @I_vTRXDSCRN char(30) = NULL,
    @I_vBACHNUMB char(15) = NULL,
    @I_vCURNCYID char(15) = NULL,
    @I_vDOCAMNT numeric(19, 5) = NULL,
    @I_vCHRGAMNT numeric(19, 5) = NULL,
    @I_vCREATEDIST smallint = NULL,
    @O_iErrorState int = NULL OUTPUT,
    @oErrString varchar(255) = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @sCompanyID smallint;
    DECLARE @iStatus int;
    DECLARE @nNoteIndex numeric(19, 5);
    DECLARE @iNoteState int;
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taPMTransactionInsert');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vDOCTYPE', @I_vDOCTYPE),
        (@call, N'I_vVCHNUMWK', @I_vVCHNUMWK),
        (@call, N'I_vDOCNUMBR', @I_vDOCNUMBR),
        (@call, N'I_vVENDORID', @I_vVENDORID),
        (@call, N'I_vDOCDATE', @I_vDOCDATE),
        (@call, N'I_vDUEDATE', @I_vDUEDATE),
        (@call, N'I_vPRCHAMNT', @I_vPRCHAMNT),
        (@call, N'I_vTAXAMNT', @I_vTAXAMNT),
        (@call, N'I_vTEN99AMNT', @I_vTEN99AMNT),
        (@call, N'I_vTRXDSCRN', @I_vTRXDSCRN),
        (@call, N'I_vBACHNUMB', @I_vBACHNUMB),
        (@call, N'I_vCURNCYID', @I_vCURNCYID),
        (@call, N'I_vDOCAMNT', @I_vDOCAMNT),
        (@call, N'I_vCHRGAMNT', @I_vCHRGAMNT),
        (@call, N'I_vCREATEDIST', @I_vCREATEDIST);
    SET @O_iErrorState = 0;
    SET @oErrString = '';
    -- As GP's procedures do, across databases (the write role's grants): the company's id in the system database.
    SELECT @sCompanyID = [CMPANYID] FROM [DYNAMICS].[dbo].[SY01500] WHERE [INTERID] = DB_NAME();
    IF COALESCE(@I_vCURNCYID, '') <> ''
        AND NOT EXISTS (SELECT 1 FROM [DYNAMICS].[dbo].[MC40200] WHERE [CURNCYID] = @I_vCURNCYID)
    BEGIN
        SET @O_iErrorState = 1327;
        SET @oErrString = '1327';
        RETURN @O_iErrorState;
    END;
    -- GP's 1099 checks, as taPMTransactionInsert makes them (docs/decisions.md#the-1099-amount): a
    -- negative amount 5631, a vendor that is not a 1099 vendor 713, more than the purchases 714.
    IF COALESCE(@I_vTEN99AMNT, 0) < 0
    BEGIN
        SET @O_iErrorState = 5631;
        SET @oErrString = '5631';
        RETURN @O_iErrorState;
    END;
    IF COALESCE(@I_vTEN99AMNT, 0) > 0
        AND EXISTS (SELECT 1 FROM [dbo].[PM00200] WHERE [VENDORID] = @I_vVENDORID AND [TEN99TYPE] < 2)
    BEGIN
        SET @O_iErrorState = 713;
        SET @oErrString = '713';
        RETURN @O_iErrorState;
    END;
    IF COALESCE(@I_vTEN99AMNT, 0) > 0 AND @I_vPRCHAMNT < @I_vTEN99AMNT
    BEGIN
        SET @O_iErrorState = 714;
        SET @oErrString = '714';
        RETURN @O_iErrorState;
    END;
    EXEC @iStatus = [DYNAMICS].[dbo].[tasmGetNextNoteIndex] @I_sCompanyID = @sCompanyID, @I_iSQLSessionID = 0, @I_noteincrement = 1,
        @O_mNoteIndex = @nNoteIndex OUTPUT, @O_iErrorState = @iNoteState OUTPUT;
    INSERT INTO [dbo].[PM10000] (
        [BACHNUMB], [BCHSOURC], [VCHNUMWK], [VENDORID], [DOCNUMBR], [DOCTYPE], [SOURCDOC], [DOCAMNT], [DOCDATE],
        [PSTGDATE], [PYMTRMID], [DUEDATE], [PRCHAMNT], [CURNCYID], [TRXDSCRN], [TAXAMNT], [TEN99AMNT], [UN1099AM], [CURTRXAM],
        [VCHRNMBR], [MODIFDT]
    )
    SELECT
        @I_vBACHNUMB, 'PM_Trxent', @I_vVCHNUMWK, @I_vVENDORID, @I_vDOCNUMBR, @I_vDOCTYPE, 'PMTRX', @I_vDOCAMNT,
        @I_vDOCDATE, @I_vDOCDATE, v.[PYMTRMID], COALESCE(@I_vDUEDATE, '19000101'), @I_vPRCHAMNT,
        COALESCE(@I_vCURNCYID, v.[CURNCYID]), COALESCE(@I_vTRXDSCRN, ''), COALESCE(@I_vTAXAMNT, 0), COALESCE(@I_vTEN99AMNT, 0),
        COALESCE(@I_vTEN99AMNT, 0), @I_vDOCAMNT, @I_vVCHNUMWK, CONVERT(date, GETDATE())
    FROM [dbo].[PM00200] AS v
    WHERE v.[VENDORID] = @I_vVENDORID;
    EXEC [dbo].[gpgw_standin_AddToBatch] 'PM_Trxent', @I_vBACHNUMB, 4, @I_vDOCAMNT;
    RETURN 0;
END;
GO

CREATE OR ALTER PROCEDURE [dbo].[taGetNextJournalEntry]
    @I_vInc_Dec tinyint = NULL,
    @O_vJournalEntryNumber char(13) = NULL OUTPUT,
    @O_iErrorState int = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @entry int;
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taGetNextJournalEntry');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vInc_Dec', @I_vInc_Dec);
    SET @O_iErrorState = 0;
    SELECT @entry = [NJRNLENT] FROM [dbo].[GL40000] WITH (TABLOCKX, HOLDLOCK) WHERE [UNIQKEY] = '1';
    IF @entry IS NULL
    BEGIN
        SET @O_iErrorState = 90012;
        RETURN 0;
    END;
    WHILE EXISTS (SELECT 1 FROM [dbo].[GL10000] WHERE [JRNENTRY] = @entry)
        OR EXISTS (SELECT 1 FROM [dbo].[GL20000] WHERE [JRNENTRY] = @entry)
        OR EXISTS (SELECT 1 FROM [dbo].[GL30000] WHERE [JRNENTRY] = @entry)
        SET @entry = @entry + 1;
    UPDATE [dbo].[GL40000] SET [NJRNLENT] = @entry + 1 WHERE [UNIQKEY] = '1';
    SET @O_vJournalEntryNumber = CAST(@entry AS varchar(13));
    RETURN 0;
END;
GO

CREATE OR ALTER PROCEDURE [dbo].[taGLTransactionLineInsert]
    @I_vBACHNUMB char(15) = NULL,
    @I_vJRNENTRY int = NULL,
    @I_vACTNUMST char(75) = NULL,
    @I_vDEBITAMT numeric(19, 5) = NULL,
    @I_vCRDTAMNT numeric(19, 5) = NULL,
    @I_vDSCRIPTN char(30) = NULL,
    @O_iErrorState int = NULL OUTPUT,
    @oErrString varchar(255) = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @account int;
    DECLARE @type smallint;
    DECLARE @sCompanyID smallint;
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taGLTransactionLineInsert');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vBACHNUMB', @I_vBACHNUMB),
        (@call, N'I_vJRNENTRY', @I_vJRNENTRY),
        (@call, N'I_vACTNUMST', @I_vACTNUMST),
        (@call, N'I_vDEBITAMT', @I_vDEBITAMT),
        (@call, N'I_vCRDTAMNT', @I_vCRDTAMNT),
        (@call, N'I_vDSCRIPTN', @I_vDSCRIPTN);
    SET @O_iErrorState = 0;
    SET @oErrString = '';
    -- As GP's procedures do, across databases (the write role's grants): the company's id in the system database.
    SELECT @sCompanyID = [CMPANYID] FROM [DYNAMICS].[dbo].[SY01500] WHERE [INTERID] = DB_NAME();
    -- eConnect finds the account's index from its number.
    SELECT @account = n.[ACTINDX], @type = a.[ACCTTYPE]
    FROM [dbo].[GL00105] AS n
    INNER JOIN [dbo].[GL00100] AS a ON a.[ACTINDX] = n.[ACTINDX]
    WHERE n.[ACTNUMST] = @I_vACTNUMST;
    IF @account IS NULL
    BEGIN
        SET @O_iErrorState = 90020;
        SET @oErrString = '90020';
        RETURN 0;
    END;
    INSERT INTO [dbo].[GL10001] (
        [BACHNUMB], [JRNENTRY], [SQNCLINE], [ACTINDX], [DSCRIPTN], [ACCTTYPE], [DEBITAMT], [CRDTAMNT], [ORDBTAMT],
        [ORCRDAMT]
    )
    SELECT
        @I_vBACHNUMB, @I_vJRNENTRY,
        COALESCE((SELECT MAX(l.[SQNCLINE]) FROM [dbo].[GL10001] AS l WHERE l.[JRNENTRY] = @I_vJRNENTRY), 0) + 16384,
        @account, COALESCE(@I_vDSCRIPTN, ''), @type, COALESCE(@I_vDEBITAMT, 0), COALESCE(@I_vCRDTAMNT, 0),
        COALESCE(@I_vDEBITAMT, 0), COALESCE(@I_vCRDTAMNT, 0);
    RETURN 0;
END;
GO

CREATE OR ALTER PROCEDURE [dbo].[taGLTransactionHeaderInsert]
    @I_vBACHNUMB char(15) = NULL,
    @I_vJRNENTRY int = NULL,
    @I_vREFRENCE char(30) = NULL,
    @I_vTRXDATE datetime = NULL,
    @I_vSOURCDOC char(11) = NULL,
    @I_vTRXTYPE smallint = NULL,
    @O_iErrorState int = NULL OUTPUT,
    @oErrString varchar(255) = NULL OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @total numeric(19, 5);
    DECLARE @sCompanyID smallint;
    DECLARE @iStatus int;
    DECLARE @nNoteIndex numeric(19, 5);
    DECLARE @iNoteState int;
    DECLARE @call int;
    INSERT INTO [dbo].[GPGW_STANDIN_CALLS] ([PROCEDURE_NAME]) VALUES (N'taGLTransactionHeaderInsert');
    SET @call = SCOPE_IDENTITY();
    INSERT INTO [dbo].[GPGW_STANDIN_PARAMETERS] ([CALL_ID], [PARAMETER_NAME], [PARAMETER_VALUE]) VALUES
        (@call, N'I_vBACHNUMB', @I_vBACHNUMB),
        (@call, N'I_vJRNENTRY', @I_vJRNENTRY),
        (@call, N'I_vREFRENCE', @I_vREFRENCE),
        (@call, N'I_vTRXDATE', @I_vTRXDATE),
        (@call, N'I_vSOURCDOC', @I_vSOURCDOC),
        (@call, N'I_vTRXTYPE', @I_vTRXTYPE);
    SET @O_iErrorState = 0;
    SET @oErrString = '';
    -- As GP's procedures do, across databases (the write role's grants): the company's id in the system database.
    SELECT @sCompanyID = [CMPANYID] FROM [DYNAMICS].[dbo].[SY01500] WHERE [INTERID] = DB_NAME();
    EXEC @iStatus = [DYNAMICS].[dbo].[tasmGetNextNoteIndex] @I_sCompanyID = @sCompanyID, @I_iSQLSessionID = 0, @I_noteincrement = 1,
        @O_mNoteIndex = @nNoteIndex OUTPUT, @O_iErrorState = @iNoteState OUTPUT;
    SELECT @total = COALESCE(SUM([DEBITAMT]), 0) FROM [dbo].[GL10001] WHERE [JRNENTRY] = @I_vJRNENTRY;
    INSERT INTO [dbo].[GL10000] (
        [BACHNUMB], [BCHSOURC], [JRNENTRY], [SOURCDOC], [REFRENCE], [TRXDATE], [LSTDTEDT], [TRXTYPE], [SERIES],
        [OPENYEAR], [DOCDATE], [Ledger_ID]
    )
    VALUES (
        @I_vBACHNUMB, 'GL_Normal', @I_vJRNENTRY, COALESCE(@I_vSOURCDOC, 'GJ'), COALESCE(@I_vREFRENCE, ''), @I_vTRXDATE,
        CONVERT(date, GETDATE()), COALESCE(@I_vTRXTYPE, 0), 2, YEAR(@I_vTRXDATE), @I_vTRXDATE, 1
    );
    EXEC [dbo].[gpgw_standin_AddToBatch] 'GL_Normal', @I_vBACHNUMB, 2, @total;
    RETURN 0;
END;
GO
