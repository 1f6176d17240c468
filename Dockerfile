# One image per server, for those who build with Docker; `make images` builds the same
# image without a daemon (cmd/mkdist/images.go), and cmd/mkdist/dockerfile_test.go
# keeps the two equal (entrypoint, user, env, port, labels, workdir, stop signal).
#   docker build --build-arg SERVER=ziwei --build-arg PORT=8701 \
#     --build-arg DESCRIPTION="$(bin/mcpfleet list | awk '$1=="ziwei"{$1="";print substr($0,2)}')" -t mcpfleet/ziwei .
# SERVER and PORT come from `mcpfleet list --json`. The server listens on 0.0.0.0, so it
# refuses to start without MCPFLEET_AUTH_TOKENS; probes use GET /healthz (no auth).
ARG GO_VERSION=1.26

FROM golang:${GO_VERSION} AS build
ARG SERVER
ARG VERSION=0.0.0-dev
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN test -n "${SERVER}" && CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags "-s -w -buildid= -X main.version=${VERSION}" -o /out/app/server ./servers/${SERVER} \
 && mkdir -p /out/tmp /out/state && chmod 1777 /out/tmp

FROM scratch
ARG SERVER
ARG PORT
ARG VERSION=0.0.0-dev
ARG DESCRIPTION=""
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/app/server /app/server
COPY --from=build /out/tmp /tmp
# The state file <server>.db; mount a volume here to keep it (docs/deploy.md).
COPY --from=build --chown=65532:65532 /out/state /var/lib/mcpfleet
ENV MCPFLEET_ADDR=0.0.0.0:${PORT} MCPFLEET_LOG_FORMAT=json HOME=/tmp SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt MCPFLEET_STATE_DIR=/var/lib/mcpfleet
LABEL org.opencontainers.image.title="${SERVER}" \
      org.opencontainers.image.description="${DESCRIPTION}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="https://github.com/mcpfleet/mcpfleet" \
      org.opencontainers.image.url="https://github.com/mcpfleet/mcpfleet/tree/main/servers/${SERVER}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.vendor="mcpfleet" \
      io.modelcontextprotocol.server.name="io.github.mcpfleet/${SERVER}" \
      io.mcpfleet.healthcheck="/healthz"
USER 65532:65532
WORKDIR /tmp
EXPOSE ${PORT}/tcp
STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/server", "--transport", "http"]
