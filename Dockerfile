# The Windlass engine image, for those who build with a registry at hand. Without a registry or Docker, `mvn -B verify`
# builds the same image as a tar with Jib (engine/target/windlass-image.tar, a scratch base: README "Install in a cluster").
# With Docker:
#   docker build -t registry.example.com/windlass:0.1.0 .
# Four stages: the engine's jar (Maven), kustomize, helm, crane and sops at the pinned versions (scripts/render-tools.sh, from the
# Go module proxy), a jlinked Java runtime holding only the modules the jars use, and the runtime image: Debian slim
# with CA certificates, running as the numeric non-root user 65532. deploy/ runs it with a read-only root filesystem.

ARG MAVEN_IMAGE=maven:3.9-eclipse-temurin-25
ARG GO_IMAGE=golang:1.26-bookworm
ARG JDK_IMAGE=eclipse-temurin:25-jdk
ARG BASE_IMAGE=debian:bookworm-slim

FROM ${MAVEN_IMAGE} AS engine
WORKDIR /src
COPY . .
RUN mvn -B -q -DskipTests -pl engine -am package \
 && mkdir /out && cp engine/target/windlass.jar /out/ && cp -r engine/target/lib /out/lib

FROM ${GO_IMAGE} AS tools
WORKDIR /src
COPY scripts/render-tools.sh scripts/
COPY render/src/main/go/windlass-gotemplate render/src/main/go/windlass-gotemplate
RUN WINDLASS_TOOLS_CACHE=/tools bash scripts/render-tools.sh \
 && mkdir /out && cp /tools/kustomize-*/kustomize /tools/kustomize-*/helm /tools/kustomize-*/landlock-restrict /tools/kustomize-*/sops /tools/kustomize-*/crane /tools/kustomize-*/windlass-gotemplate /out/

FROM ${JDK_IMAGE} AS runtime
COPY --from=engine /out /app
# The modules `jdeps --print-module-deps` finds in the jars, and the EC ciphers TLS to API servers needs.
RUN modules="$(jdeps --ignore-missing-deps --print-module-deps --multi-release 25 --class-path '/app/lib/*' /app/windlass.jar)" \
 && jlink --add-modules "${modules},jdk.crypto.ec,java.logging" --strip-debug --no-man-pages --no-header-files --compress=zip-6 \
      --output /jre \
 && /jre/bin/java -jar /app/windlass.jar --version

FROM ${BASE_IMAGE}
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/windlass && chown 65532:65532 /var/lib/windlass
COPY --from=runtime /jre /opt/java
COPY --from=engine /out /opt/windlass
COPY --from=tools /out/kustomize /out/helm /out/landlock-restrict /out/sops /out/crane /out/windlass-gotemplate /usr/local/bin/
ENV PATH=/opt/java/bin:$PATH HOME=/var/lib/windlass
WORKDIR /var/lib/windlass
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["java", "--sun-misc-unsafe-memory-access=allow", "-XX:+UseCompactObjectHeaders", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xms16m", "-XX:MaxNewSize=24m", "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=30", "-XX:+UseStringDeduplication", "-Dio.netty.allocator.numDirectArenas=1", "-jar", "/opt/windlass/windlass.jar"]
CMD ["--help"]
