{{/* Chart name, truncated to the 63 characters Kubernetes names allow. */}}
{{- define "findings.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-qualified name used by every object of the chart. */}}
{{- define "findings.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains (include "findings.name" .) .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "findings.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "findings.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "findings.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/part-of: security-platform
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one role: call with (dict "root" $ "role" "api"). */}}
{{- define "findings.selectorLabels" -}}
app.kubernetes.io/name: {{ include "findings.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .role }}
{{- end -}}

{{/*
<registry>/<name>:<tag> of one image: call with (dict "root" $ "image" .Values.image).
Registry and tag fall back to global.imageRegistry / global.imageTag, the tag then to appVersion.
*/}}
{{- define "findings.imageRef" -}}
{{- $g := .root.Values.global | default dict -}}
{{- $registry := .image.registry | default $g.imageRegistry | required "image.registry or global.imageRegistry must name the registry of the platform images" -}}
{{- $tag := .image.tag | default $g.imageTag | default .root.Chart.AppVersion -}}
{{- printf "%s/%s:%s" (trimSuffix "/" $registry) .image.name $tag -}}
{{- end -}}

{{- define "findings.imageTag" -}}
{{- $g := .root.Values.global | default dict -}}
{{- .image.tag | default $g.imageTag | default .root.Chart.AppVersion -}}
{{- end -}}

{{/*
The Secret whose keys become the processes' environment: secrets.existingSecret, or the one
this chart renders from secrets.values. Fails with a clear message when neither is set.
*/}}
{{- define "findings.secretName" -}}
{{- if .Values.secrets.existingSecret -}}
{{- .Values.secrets.existingSecret -}}
{{- else if .Values.secrets.values -}}
{{- printf "%s-env" (include "findings.fullname" .) -}}
{{- else -}}
{{- fail "findings-service: set secrets.existingSecret (a Secret with DATABASE_URL, REDIS_URL and JWT_SECRET) or secrets.values" -}}
{{- end -}}
{{- end -}}

{{/* gRPC address of the plugin runner (PLUGIN_RUNNER_URL). */}}
{{- define "findings.pluginRunnerUrl" -}}
{{- .Values.pluginRunner.url | default (printf "%s-plugin-runner:%v" .Release.Name .Values.pluginRunner.grpcPort) -}}
{{- end -}}

{{/* An HTTP probe from {path, initialDelaySeconds, ...}: call with (dict "probe" $p "port" "http"). */}}
{{- define "findings.httpProbe" -}}
httpGet:
  path: {{ .probe.path }}
  port: {{ .port }}
initialDelaySeconds: {{ .probe.initialDelaySeconds }}
periodSeconds: {{ .probe.periodSeconds }}
timeoutSeconds: {{ .probe.timeoutSeconds }}
failureThreshold: {{ .probe.failureThreshold }}
{{- end -}}

{{/* Plain environment of every role, then the role's own: (dict "root" $ "env" .Values.api.env). */}}
{{- define "findings.envFrom" -}}
- configMapRef:
    name: {{ include "findings.fullname" .root }}
- secretRef:
    name: {{ include "findings.secretName" .root }}
{{- end -}}

{{/* PLUGIN_RUNNER_URL and, from its own Secret when one is named, PLUGIN_RUNNER_TOKEN. */}}
{{- define "findings.pluginRunnerEnv" -}}
{{- if .Values.pluginRunner.enabled }}
- name: PLUGIN_RUNNER_URL
  value: {{ include "findings.pluginRunnerUrl" . | quote }}
{{- with .Values.pluginRunner.token.existingSecret }}
- name: PLUGIN_RUNNER_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.Values.pluginRunner.token.key }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Scheduling of one role's pods: (dict "root" $ "role" "api"). */}}
{{- define "findings.scheduling" -}}
{{- $v := .root.Values -}}
{{- if $v.topologySpread.enabled }}
topologySpreadConstraints:
  {{- range $v.topologySpread.topologyKeys }}
  - maxSkew: {{ $v.topologySpread.maxSkew }}
    topologyKey: {{ . }}
    whenUnsatisfiable: {{ $v.topologySpread.whenUnsatisfiable }}
    labelSelector:
      matchLabels:
        {{- include "findings.selectorLabels" (dict "root" $.root "role" $.role) | nindent 8 }}
  {{- end }}
{{- end }}
{{- with $v.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{- define "findings.imagePullSecrets" -}}
{{- $g := .Values.global | default dict -}}
{{- with concat ($g.imagePullSecrets | default list) (.Values.imagePullSecrets | default list) }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Mounts and volumes of `secretFiles` (read-only files from existing Secrets). */}}
{{- define "findings.secretFileMounts" -}}
{{- range $i, $f := .Values.secretFiles }}
- name: secret-file-{{ $i }}
  mountPath: {{ $f.mountPath }}
  readOnly: true
{{- end }}
{{- end -}}

{{- define "findings.secretFileVolumes" -}}
{{- range $i, $f := .Values.secretFiles }}
- name: secret-file-{{ $i }}
  secret:
    secretName: {{ $f.secret }}
    defaultMode: 288 # 0440: the fsGroup may read
{{- end }}
{{- end -}}

{{/* The API's and worker's volumes: the shared report storage, then `secretFiles`. */}}
{{- define "findings.reportStorageEnv" -}}
- name: REPORT_STORAGE_DIR
  value: {{ .Values.reportStorage.mountPath | quote }}
{{- end -}}

{{- define "findings.dataMounts" -}}
- name: reports
  mountPath: {{ .Values.reportStorage.mountPath }}
{{- include "findings.secretFileMounts" . }}
{{- end -}}

{{- define "findings.dataVolumes" -}}
- name: reports
  persistentVolumeClaim:
    claimName: {{ .Values.reportStorage.existingClaim | default (printf "%s-reports" (include "findings.fullname" .)) }}
{{- include "findings.secretFileVolumes" . }}
{{- end -}}
