#!/usr/bin/env bash
# Fallback for when PyPI is unreachable: the time-skipping test server from Maven Central,
# wrapped in a script so that @temporalio/testing can start it like the native binary.
set -euo pipefail
bin_dir=$(cd "$1" && pwd)
version=1.32.0
work=$(mktemp -d)
cat > "$work/pom.xml" <<POM
<project><modelVersion>4.0.0</modelVersion><groupId>local</groupId><artifactId>test-server</artifactId>
<version>1</version><dependencies><dependency><groupId>io.temporal</groupId>
<artifactId>temporal-test-server</artifactId><version>$version</version></dependency></dependencies></project>
POM
lib="$bin_dir/../lib/test-server"
mkdir -p "$lib"
mvn -q -f "$work/pom.xml" dependency:copy-dependencies -DoutputDirectory="$lib"
cat > "$bin_dir/temporal-test-server" <<'SH'
#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../lib/test-server" && pwd)
exec java -cp "$here/*" io.temporal.testserver.TestServer "$@"
SH
chmod +x "$bin_dir/temporal-test-server"
