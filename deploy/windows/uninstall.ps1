<#
.SYNOPSIS
  Stops (draining requests in flight) and removes the gp-agent Windows service. The configuration
  and logs in C:\ProgramData\gp-agent stay.
#>
param([string] $InstallDir = "C:\Program Files\gp-agent")
$ErrorActionPreference = "Stop"
$winsw = Join-Path $InstallDir "deploy\windows\gp-agent.exe"
& $winsw stop
& $winsw uninstall
