@echo off
rem Ridgeline @project.version@: runs the command line (lib\ridgeline-web-@project.version@-all.jar)
rem with a Java 17 or later runtime: %JAVA_HOME%\bin\java.exe when JAVA_HOME is set, else java on
rem the PATH.
rem   RIDGELINE_JAVA_OPTS   more JVM options (e.g. -Xmx8g)
rem   RIDGELINE_TIERED=1    keep the C2 compiler (pays off for runs of more than a few seconds)
rem "ridgeline shell" opens JShell (needs a JDK) with the library on the class path.
setlocal
set "RIDGELINE_HOME=%~dp0.."
set "RIDGELINE_JAR=%RIDGELINE_HOME%\lib\ridgeline-web-@project.version@-all.jar"
set "JAVA_EXE=java"
set "JSHELL_EXE=jshell"
if defined JAVA_HOME set "JAVA_EXE=%JAVA_HOME%\bin\java.exe"
if defined JAVA_HOME set "JSHELL_EXE=%JAVA_HOME%\bin\jshell.exe"
if defined JAVA_HOME (
  if not exist "%JAVA_EXE%" goto nojava
) else (
  where java >nul 2>&1 || goto nojava
)
rem The same JVM flags as the repository's launcher: the serial collector, and C1 alone for every
rem command but calibrate.
set "RIDGELINE_FLAGS=-XX:+UseSerialGC -Djava.awt.headless=true"
if /I not "%~1"=="calibrate" if not "%RIDGELINE_TIERED%"=="1" set "RIDGELINE_FLAGS=%RIDGELINE_FLAGS% -XX:TieredStopAtLevel=1"
if /I "%~1"=="shell" goto shell
"%JAVA_EXE%" %RIDGELINE_FLAGS% %RIDGELINE_JAVA_OPTS% -jar "%RIDGELINE_JAR%" %*
exit /b %ERRORLEVEL%
:nojava
echo ridgeline: no Java runtime: install Java 17 or later, or set JAVA_HOME 1>&2
exit /b 1
:shell
shift
"%JSHELL_EXE%" -R-Djava.awt.headless=true --class-path "%RIDGELINE_JAR%" --startup DEFAULT --startup "%RIDGELINE_HOME%\lib\ridgeline.jsh" %1 %2 %3 %4 %5 %6 %7 %8 %9
exit /b %ERRORLEVEL%
