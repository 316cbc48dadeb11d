<#
.SYNOPSIS
  Installs the GP gateway agent as a Windows service (WinSW), with its configuration file readable
  only by administrators and the service account, then runs `gp-agent diagnose`.

.DESCRIPTION
  Run from an elevated PowerShell in the agent's folder (C:\Program Files\gp-agent), with
  gp-agent.exe (WinSW v2.12 x64, renamed) beside deploy\windows\gp-agent.xml. Nothing is downloaded.

.EXAMPLE
  .\deploy\windows\install.ps1 -GatewayUrl https://gateway.example.com -Token lb_agent_... `
      -MssqlConnection "Server=gp01;Database=DYNAMICS;User Id=gp_api_read;Password=...;Encrypt=true"

.EXAMPLE
  .\deploy\windows\install.ps1 -ServiceAccount "CONTOSO\svc-gp-agent"   # Windows authentication to SQL Server
#>
param(
  [string] $GatewayUrl,
  [string] $Token,
  [string] $MssqlConnection,
  [string] $InstallDir = "C:\Program Files\gp-agent",
  [string] $ConfigDir = "C:\ProgramData\gp-agent",
  # The account the service runs as; LocalService unless SQL Server needs Windows authentication.
  [string] $ServiceAccount = "NT AUTHORITY\LocalService"
)
$ErrorActionPreference = "Stop"

$winsw = Join-Path $InstallDir "deploy\windows\gp-agent.exe"
if (-not (Test-Path $winsw)) { throw "WinSW is missing: put WinSW-x64.exe (v2.12), renamed gp-agent.exe, at $winsw" }
$node = (Get-Command node.exe -ErrorAction SilentlyContinue).Source
if (-not $node) { throw "Node.js 20 is not installed (node.exe not found on PATH)" }

New-Item -ItemType Directory -Force -Path $ConfigDir, (Join-Path $ConfigDir "logs") | Out-Null
$config = Join-Path $ConfigDir "gp-agent.conf"
if (-not (Test-Path $config)) {
  $text = Get-Content (Join-Path $InstallDir "deploy\gp-agent.conf.example") -Raw
  if ($GatewayUrl) { $text = $text -replace "(?m)^GP_GATEWAY_URL = .*$", "GP_GATEWAY_URL = $GatewayUrl" }
  if ($Token) { $text = $text -replace "(?m)^GP_AGENT_TOKEN = .*$", "GP_AGENT_TOKEN = $Token" }
  if ($MssqlConnection) { $text = $text -replace "(?m)^GP_MSSQL_CONNECTION = .*$", "GP_MSSQL_CONNECTION = $MssqlConnection" }
  Set-Content -Path $config -Value $text -Encoding UTF8
}
# The file holds the agent token and the SQL password: administrators and the service account only.
icacls $config /inheritance:r /grant:r "Administrators:F" "SYSTEM:F" "${ServiceAccount}:R" | Out-Null
icacls (Join-Path $ConfigDir "logs") /grant "${ServiceAccount}:(OI)(CI)M" | Out-Null

# WinSW reads gp-agent.xml beside gp-agent.exe; point it at this machine's node.exe and folders.
$xml = Join-Path $InstallDir "deploy\windows\gp-agent.xml"
(Get-Content $xml -Raw).
  Replace("C:\Program Files\nodejs\node.exe", $node).
  Replace("C:\Program Files\gp-agent", $InstallDir).
  Replace("C:\ProgramData\gp-agent", $ConfigDir) | Set-Content -Path $xml -Encoding UTF8

& $winsw install
if ($ServiceAccount -ne "NT AUTHORITY\LocalService") {
  Write-Host "Set the service account's password in services.msc (gp-agent > Log On), or: sc.exe config gp-agent obj= `"$ServiceAccount`" password= <password>"
} else {
  sc.exe config gp-agent obj= "NT AUTHORITY\LocalService" | Out-Null
}

Write-Host "Checking the installation (as you, not as the service account):"
Push-Location $InstallDir
& $node --import tsx apps\agent\src\cli\main.ts diagnose --config $config
$ok = $LASTEXITCODE -eq 0
Pop-Location
if ($ok) { & $winsw start; Write-Host "Started. Logs: $(Join-Path $ConfigDir 'logs')" }
else { Write-Host "Not started: fix what diagnose reported, then: $winsw start" }
