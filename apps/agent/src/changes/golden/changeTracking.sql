-- status: per tracked table, on for it and for the database, and its oldest version kept
DECLARE @p0 nvarchar(128), @p1 nvarchar(128), @p2 nvarchar(128), @p3 nvarchar(128), @p4 nvarchar(128), @p5 nvarchar(128), @p6 nvarchar(128), @p7 nvarchar(128), @p8 nvarchar(128), @p9 nvarchar(128), @p10 nvarchar(128), @p11 nvarchar(128), @p12 nvarchar(128), @p13 nvarchar(128), @p14 nvarchar(128), @p15 nvarchar(128), @p16 nvarchar(128), @p17 nvarchar(128), @p18 nvarchar(128), @p19 nvarchar(128);
SELECT [t].[name], CASE WHEN [c].[object_id] IS NULL THEN 0 ELSE 1 END, CASE WHEN EXISTS (SELECT 1 FROM [sys].[change_tracking_databases] AS [d] WHERE [d].[database_id] = DB_ID(N'TWO')) THEN 1 ELSE 0 END, CONVERT(varchar(20), [c].[min_valid_version]) FROM [TWO].[sys].[tables] AS [t] LEFT JOIN [TWO].[sys].[change_tracking_tables] AS [c] ON [c].[object_id] = [t].[object_id] WHERE [t].[schema_id] = SCHEMA_ID(N'dbo') AND [t].[name] IN (@p0, @p1, @p2, @p3, @p4, @p5, @p6, @p7, @p8, @p9, @p10, @p11, @p12, @p13, @p14, @p15, @p16, @p17, @p18, @p19) ORDER BY [t].[name];

-- the current version
EXEC [TWO].[sys].[sp_executesql] N'SELECT CONVERT(varchar(20), CHANGE_TRACKING_CURRENT_VERSION())';

-- customers RM00101: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5);
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[CUSTNMBR]), RTRIM([t].[CUSTNMBR]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[RM00101], @since) AS [c] LEFT JOIN [TWO].[dbo].[RM00101] AS [t] ON [t].[CUSTNMBR] = [c].[CUSTNMBR] WHERE [c].[SYS_CHANGE_VERSION] <= @upto ORDER BY [c].[SYS_CHANGE_VERSION];

-- customer-addresses RM00102: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5);
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[CUSTNMBR]), RTRIM([c].[ADRSCODE]), RTRIM([t].[CUSTNMBR]), RTRIM([t].[ADRSCODE]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[RM00102], @since) AS [c] LEFT JOIN [TWO].[dbo].[RM00102] AS [t] ON [t].[CUSTNMBR] = [c].[CUSTNMBR] AND [t].[ADRSCODE] = [c].[ADRSCODE] WHERE [c].[SYS_CHANGE_VERSION] <= @upto ORDER BY [c].[SYS_CHANGE_VERSION];

-- vendors PM00200: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5);
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[VENDORID]), RTRIM([t].[VENDORID]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[PM00200], @since) AS [c] LEFT JOIN [TWO].[dbo].[PM00200] AS [t] ON [t].[VENDORID] = [c].[VENDORID] WHERE [c].[SYS_CHANGE_VERSION] <= @upto ORDER BY [c].[SYS_CHANGE_VERSION];

-- vendor-addresses PM00300: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5);
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[VENDORID]), RTRIM([c].[ADRSCODE]), RTRIM([t].[VENDORID]), RTRIM([t].[ADRSCODE]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[PM00300], @since) AS [c] LEFT JOIN [TWO].[dbo].[PM00300] AS [t] ON [t].[VENDORID] = [c].[VENDORID] AND [t].[ADRSCODE] = [c].[ADRSCODE] WHERE [c].[SYS_CHANGE_VERSION] <= @upto ORDER BY [c].[SYS_CHANGE_VERSION];

-- items IV00101: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5);
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[ITEMNMBR]), RTRIM([t].[ITEMNMBR]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[IV00101], @since) AS [c] LEFT JOIN [TWO].[dbo].[IV00101] AS [t] ON [t].[ITEMNMBR] = [c].[ITEMNMBR] WHERE [c].[SYS_CHANGE_VERSION] <= @upto ORDER BY [c].[SYS_CHANGE_VERSION];

-- accounts GL00100: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5);
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], [c].[ACTINDX], (SELECT RTRIM([l].[ACTNUMST]) FROM [TWO].[dbo].[GL00105] AS [l] WHERE [l].[ACTINDX] = [t].[ACTINDX]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[GL00100], @since) AS [c] LEFT JOIN [TWO].[dbo].[GL00100] AS [t] ON [t].[ACTINDX] = [c].[ACTINDX] WHERE [c].[SYS_CHANGE_VERSION] <= @upto ORDER BY [c].[SYS_CHANGE_VERSION];

-- ar-invoices RM10301: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5);
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], [c].[RMDTYPAL], RTRIM([c].[RMDNUMWK]), [t].[RMDTYPAL], RTRIM([t].[DOCNUMBR]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[RM10301], @since) AS [c] LEFT JOIN [TWO].[dbo].[RM10301] AS [t] ON [t].[RMDTYPAL] = [c].[RMDTYPAL] AND [t].[RMDNUMWK] = [c].[RMDNUMWK] WHERE [c].[SYS_CHANGE_VERSION] <= @upto ORDER BY [c].[SYS_CHANGE_VERSION];

-- ar-invoices RM20101: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5), @p2 int, @p3 int, @p4 int, @p5 int, @p6 int, @p7 int, @p8 int;
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[CUSTNMBR]), [c].[RMDTYPAL], RTRIM([c].[DOCNUMBR]), [t].[RMDTYPAL], RTRIM([t].[DOCNUMBR]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[RM20101], @since) AS [c] LEFT JOIN [TWO].[dbo].[RM20101] AS [t] ON [t].[CUSTNMBR] = [c].[CUSTNMBR] AND [t].[RMDTYPAL] = [c].[RMDTYPAL] AND [t].[DOCNUMBR] = [c].[DOCNUMBR] WHERE [c].[SYS_CHANGE_VERSION] <= @upto AND [c].[RMDTYPAL] IN (@p2, @p3, @p4, @p5, @p6, @p7, @p8) ORDER BY [c].[SYS_CHANGE_VERSION];

-- ar-invoices RM30101: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5), @p2 int, @p3 int, @p4 int, @p5 int, @p6 int, @p7 int, @p8 int;
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[CUSTNMBR]), [c].[RMDTYPAL], RTRIM([c].[DOCNUMBR]), [t].[RMDTYPAL], RTRIM([t].[DOCNUMBR]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[RM30101], @since) AS [c] LEFT JOIN [TWO].[dbo].[RM30101] AS [t] ON [t].[CUSTNMBR] = [c].[CUSTNMBR] AND [t].[RMDTYPAL] = [c].[RMDTYPAL] AND [t].[DOCNUMBR] = [c].[DOCNUMBR] WHERE [c].[SYS_CHANGE_VERSION] <= @upto AND [c].[RMDTYPAL] IN (@p2, @p3, @p4, @p5, @p6, @p7, @p8) ORDER BY [c].[SYS_CHANGE_VERSION];

-- ar-payments RM20101: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5), @p2 int;
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[CUSTNMBR]), [c].[RMDTYPAL], RTRIM([c].[DOCNUMBR]), [t].[RMDTYPAL], RTRIM([t].[DOCNUMBR]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[RM20101], @since) AS [c] LEFT JOIN [TWO].[dbo].[RM20101] AS [t] ON [t].[CUSTNMBR] = [c].[CUSTNMBR] AND [t].[RMDTYPAL] = [c].[RMDTYPAL] AND [t].[DOCNUMBR] = [c].[DOCNUMBR] WHERE [c].[SYS_CHANGE_VERSION] <= @upto AND [c].[RMDTYPAL] IN (@p2) ORDER BY [c].[SYS_CHANGE_VERSION];

-- ar-payments RM30101: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5), @p2 int;
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[CUSTNMBR]), [c].[RMDTYPAL], RTRIM([c].[DOCNUMBR]), [t].[RMDTYPAL], RTRIM([t].[DOCNUMBR]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[RM30101], @since) AS [c] LEFT JOIN [TWO].[dbo].[RM30101] AS [t] ON [t].[CUSTNMBR] = [c].[CUSTNMBR] AND [t].[RMDTYPAL] = [c].[RMDTYPAL] AND [t].[DOCNUMBR] = [c].[DOCNUMBR] WHERE [c].[SYS_CHANGE_VERSION] <= @upto AND [c].[RMDTYPAL] IN (@p2) ORDER BY [c].[SYS_CHANGE_VERSION];

-- ap-invoices PM10000: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5), @p2 int, @p3 int, @p4 int, @p5 int, @p6 int;
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[BCHSOURC]), RTRIM([c].[BACHNUMB]), RTRIM([c].[VCHNUMWK]), [t].[DOCTYPE], RTRIM([t].[VCHNUMWK]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[PM10000], @since) AS [c] LEFT JOIN [TWO].[dbo].[PM10000] AS [t] ON [t].[BCHSOURC] = [c].[BCHSOURC] AND [t].[BACHNUMB] = [c].[BACHNUMB] AND [t].[VCHNUMWK] = [c].[VCHNUMWK] WHERE [c].[SYS_CHANGE_VERSION] <= @upto AND ([t].[DOCTYPE] IN (@p2, @p3, @p4, @p5, @p6) OR [t].[DOCTYPE] IS NULL) ORDER BY [c].[SYS_CHANGE_VERSION];

-- ap-invoices PM20000: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5), @p2 int, @p3 int, @p4 int, @p5 int, @p6 int;
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], [c].[DOCTYPE], RTRIM([c].[VCHRNMBR]), [t].[DOCTYPE], RTRIM([t].[VCHRNMBR]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[PM20000], @since) AS [c] LEFT JOIN [TWO].[dbo].[PM20000] AS [t] ON [t].[DOCTYPE] = [c].[DOCTYPE] AND [t].[VCHRNMBR] = [c].[VCHRNMBR] WHERE [c].[SYS_CHANGE_VERSION] <= @upto AND [c].[DOCTYPE] IN (@p2, @p3, @p4, @p5, @p6) ORDER BY [c].[SYS_CHANGE_VERSION];

-- ap-invoices PM30200: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5), @p2 int, @p3 int, @p4 int, @p5 int, @p6 int;
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], [c].[DOCTYPE], RTRIM([c].[VCHRNMBR]), [t].[DOCTYPE], RTRIM([t].[VCHRNMBR]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[PM30200], @since) AS [c] LEFT JOIN [TWO].[dbo].[PM30200] AS [t] ON [t].[DOCTYPE] = [c].[DOCTYPE] AND [t].[VCHRNMBR] = [c].[VCHRNMBR] WHERE [c].[SYS_CHANGE_VERSION] <= @upto AND [c].[DOCTYPE] IN (@p2, @p3, @p4, @p5, @p6) ORDER BY [c].[SYS_CHANGE_VERSION];

-- ap-payments PM20000: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5), @p2 int;
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], [c].[DOCTYPE], RTRIM([c].[VCHRNMBR]), [t].[DOCTYPE], RTRIM([t].[VCHRNMBR]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[PM20000], @since) AS [c] LEFT JOIN [TWO].[dbo].[PM20000] AS [t] ON [t].[DOCTYPE] = [c].[DOCTYPE] AND [t].[VCHRNMBR] = [c].[VCHRNMBR] WHERE [c].[SYS_CHANGE_VERSION] <= @upto AND [c].[DOCTYPE] IN (@p2) ORDER BY [c].[SYS_CHANGE_VERSION];

-- ap-payments PM30200: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5), @p2 int;
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], [c].[DOCTYPE], RTRIM([c].[VCHRNMBR]), [t].[DOCTYPE], RTRIM([t].[VCHRNMBR]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[PM30200], @since) AS [c] LEFT JOIN [TWO].[dbo].[PM30200] AS [t] ON [t].[DOCTYPE] = [c].[DOCTYPE] AND [t].[VCHRNMBR] = [c].[VCHRNMBR] WHERE [c].[SYS_CHANGE_VERSION] <= @upto AND [c].[DOCTYPE] IN (@p2) ORDER BY [c].[SYS_CHANGE_VERSION];

-- sales-orders SOP10100: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5);
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[SOPNUMBE]), [c].[SOPTYPE], [t].[SOPTYPE], RTRIM([t].[SOPNUMBE]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[SOP10100], @since) AS [c] LEFT JOIN [TWO].[dbo].[SOP10100] AS [t] ON [t].[SOPNUMBE] = [c].[SOPNUMBE] AND [t].[SOPTYPE] = [c].[SOPTYPE] WHERE [c].[SYS_CHANGE_VERSION] <= @upto ORDER BY [c].[SYS_CHANGE_VERSION];

-- sales-orders SOP30200: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5);
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[SOPNUMBE]), [c].[SOPTYPE], [t].[SOPTYPE], RTRIM([t].[SOPNUMBE]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[SOP30200], @since) AS [c] LEFT JOIN [TWO].[dbo].[SOP30200] AS [t] ON [t].[SOPNUMBE] = [c].[SOPNUMBE] AND [t].[SOPTYPE] = [c].[SOPTYPE] WHERE [c].[SYS_CHANGE_VERSION] <= @upto ORDER BY [c].[SYS_CHANGE_VERSION];

-- sales-order-lines SOP10200: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5), @p2 int;
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[SOPNUMBE]), [c].[SOPTYPE], [c].[CMPNTSEQ], [c].[LNITMSEQ], [t].[SOPTYPE], RTRIM([t].[SOPNUMBE]), [t].[LNITMSEQ], CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[SOP10200], @since) AS [c] LEFT JOIN [TWO].[dbo].[SOP10200] AS [t] ON [t].[SOPNUMBE] = [c].[SOPNUMBE] AND [t].[SOPTYPE] = [c].[SOPTYPE] AND [t].[CMPNTSEQ] = [c].[CMPNTSEQ] AND [t].[LNITMSEQ] = [c].[LNITMSEQ] WHERE [c].[SYS_CHANGE_VERSION] <= @upto AND [c].[CMPNTSEQ] IN (@p2) ORDER BY [c].[SYS_CHANGE_VERSION];

-- sales-order-lines SOP30300: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5), @p2 int;
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[SOPNUMBE]), [c].[SOPTYPE], [c].[CMPNTSEQ], [c].[LNITMSEQ], [t].[SOPTYPE], RTRIM([t].[SOPNUMBE]), [t].[LNITMSEQ], CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[SOP30300], @since) AS [c] LEFT JOIN [TWO].[dbo].[SOP30300] AS [t] ON [t].[SOPNUMBE] = [c].[SOPNUMBE] AND [t].[SOPTYPE] = [c].[SOPTYPE] AND [t].[CMPNTSEQ] = [c].[CMPNTSEQ] AND [t].[LNITMSEQ] = [c].[LNITMSEQ] WHERE [c].[SYS_CHANGE_VERSION] <= @upto AND [c].[CMPNTSEQ] IN (@p2) ORDER BY [c].[SYS_CHANGE_VERSION];

-- purchase-orders POP10100: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5);
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[PONUMBER]), RTRIM([t].[PONUMBER]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[POP10100], @since) AS [c] LEFT JOIN [TWO].[dbo].[POP10100] AS [t] ON [t].[PONUMBER] = [c].[PONUMBER] WHERE [c].[SYS_CHANGE_VERSION] <= @upto ORDER BY [c].[SYS_CHANGE_VERSION];

-- purchase-orders POP30100: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5);
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[PONUMBER]), RTRIM([t].[PONUMBER]), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[POP30100], @since) AS [c] LEFT JOIN [TWO].[dbo].[POP30100] AS [t] ON [t].[PONUMBER] = [c].[PONUMBER] WHERE [c].[SYS_CHANGE_VERSION] <= @upto ORDER BY [c].[SYS_CHANGE_VERSION];

-- purchase-order-lines POP10110: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5);
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[PONUMBER]), [c].[ORD], [c].[BRKFLD1], RTRIM([t].[PONUMBER]), [t].[ORD], CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[POP10110], @since) AS [c] LEFT JOIN [TWO].[dbo].[POP10110] AS [t] ON [t].[PONUMBER] = [c].[PONUMBER] AND [t].[ORD] = [c].[ORD] AND [t].[BRKFLD1] = [c].[BRKFLD1] WHERE [c].[SYS_CHANGE_VERSION] <= @upto ORDER BY [c].[SYS_CHANGE_VERSION];

-- purchase-order-lines POP30110: changes since a version, up to another
DECLARE @p0 numeric(19, 5), @p1 numeric(19, 5);
DECLARE @since bigint = @p0, @upto bigint = @p1; SELECT [c].[SYS_CHANGE_VERSION], [c].[SYS_CHANGE_OPERATION], [c].[SYS_CHANGE_CREATION_VERSION], RTRIM([c].[PONUMBER]), [c].[ORD], [c].[BRKFLD1], RTRIM([t].[PONUMBER]), [t].[ORD], CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID] FROM CHANGETABLE(CHANGES [TWO].[dbo].[POP30110], @since) AS [c] LEFT JOIN [TWO].[dbo].[POP30110] AS [t] ON [t].[PONUMBER] = [c].[PONUMBER] AND [t].[ORD] = [c].[ORD] AND [t].[BRKFLD1] = [c].[BRKFLD1] WHERE [c].[SYS_CHANGE_VERSION] <= @upto ORDER BY [c].[SYS_CHANGE_VERSION];

-- what a DBA runs to turn it on
ALTER DATABASE [TWO] SET CHANGE_TRACKING = ON (CHANGE_RETENTION = 2 DAYS, AUTO_CLEANUP = ON);

-- what a DBA runs to turn it on
ALTER TABLE [TWO].[dbo].[RM00101] ENABLE CHANGE_TRACKING WITH (TRACK_COLUMNS_UPDATED = OFF);

-- what a DBA runs to turn it on
USE [TWO]; GRANT VIEW CHANGE TRACKING ON [dbo].[RM00101] TO [gp_gateway_read];

-- what a DBA runs to turn it on
ALTER TABLE [TWO].[dbo].[RM20101] ENABLE CHANGE_TRACKING WITH (TRACK_COLUMNS_UPDATED = OFF);

-- what a DBA runs to turn it on
USE [TWO]; GRANT VIEW CHANGE TRACKING ON [dbo].[RM20101] TO [gp_gateway_read];
