# evalgate's GitHub Action image: one static binary on scratch, with CA certificates.
#
#   docker build -t evalgate .                    # the image action.yml runs (stage "action")
#   docker build --target runtime -t evalgate .   # the non-root image, for use outside Actions
#   scripts/podman-build.sh                       # the runtime stage from a host-built binary,
#                                                 # with no image pull (what CI checks)

# The build stage runs on the builder's own platform and cross-compiles for the target
# (TARGETOS/TARGETARCH, set by BuildKit), so the release's multi-arch image needs no
# emulation; without them Go builds for the builder.
FROM --platform=$BUILDPLATFORM golang:1.26 AS build
ARG VERSION=dev
ARG TARGETOS
ARG TARGETARCH
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Static (no cgo), reproducible (-trimpath), small (-s -w strips symbols and DWARF).
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH go build -trimpath \
      -ldflags "-s -w -X github.com/evalgate/evalgate/internal/cli.Version=${VERSION}" \
      -o /out/evalgate ./cmd/evalgate \
 && mkdir -p /out/rootfs/tmp && chmod 1777 /out/rootfs/tmp
# The golang image ships Debian's CA bundle at /etc/ssl/certs/ca-certificates.crt.

FROM scratch AS runtime
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
# /tmp (mode 1777): the action keeps the base commit's config and baseline there.
COPY --from=build /out/rootfs/ /
COPY --from=build /out/evalgate /evalgate
USER 65532:65532
ENTRYPOINT ["/evalgate", "action"]

# GitHub runs a Docker action's container as the image's user, with the workspace and
# the files behind GITHUB_OUTPUT and GITHUB_STEP_SUMMARY owned by the runner's user; it
# requires the default user, root, or the action cannot write them:
# https://docs.github.com/actions/creating-actions/dockerfile-support-for-github-actions#user
# action.yml builds this last stage; everything else uses runtime above.
FROM runtime AS action
USER 0:0
