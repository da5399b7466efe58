{{/* Chart name, truncated to the 63 characters Kubernetes names allow. */}}
{{- define "certsvc.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-qualified name used by every object of the chart. */}}
{{- define "certsvc.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains (include "certsvc.name" .) .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "certsvc.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "certsvc.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "certsvc.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/part-of: security-platform
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one role: call with (dict "root" $ "role" "api"). */}}
{{- define "certsvc.selectorLabels" -}}
app.kubernetes.io/name: {{ include "certsvc.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .role }}
{{- end -}}

{{/*
<registry>/<name>:<tag> of one image: call with (dict "root" $ "image" .Values.image).
Registry and tag fall back to global.imageRegistry / global.imageTag, the tag then to appVersion.
*/}}
{{- define "certsvc.imageRef" -}}
{{- $g := .root.Values.global | default dict -}}
{{- $registry := .image.registry | default $g.imageRegistry | required "image.registry or global.imageRegistry must name the registry of the platform images" -}}
{{- $tag := .image.tag | default $g.imageTag | default .root.Chart.AppVersion -}}
{{- printf "%s/%s:%s" (trimSuffix "/" $registry) .image.name $tag -}}
{{- end -}}

{{- define "certsvc.imageTag" -}}
{{- $g := .root.Values.global | default dict -}}
{{- .image.tag | default $g.imageTag | default .root.Chart.AppVersion -}}
{{- end -}}

{{/*
The Secret whose keys become the processes' environment: secrets.existingSecret, or the one
this chart renders from secrets.values. Fails with a clear message when neither is set.
*/}}
{{- define "certsvc.secretName" -}}
{{- if .Values.secrets.existingSecret -}}
{{- .Values.secrets.existingSecret -}}
{{- else if .Values.secrets.values -}}
{{- printf "%s-env" (include "certsvc.fullname" .) -}}
{{- else -}}
{{- fail "certificate-service: set secrets.existingSecret (a Secret with CERTSVC_DATABASE_URL, CERTSVC_REDIS_URL, CERTSVC_JWT_SECRET and CERTSVC_CA_KEY_ENC_KEY) or secrets.values" -}}
{{- end -}}
{{- end -}}

{{/*
A probe from {path, initialDelaySeconds, ...}: call with (dict "probe" $p "port" "http"). With
`exec` (a command list) instead of `path` it runs that command in the container.
*/}}
{{- define "certsvc.probe" -}}
{{- if .probe.exec }}
exec:
  command:
    {{- toYaml .probe.exec | nindent 4 }}
{{- else }}
httpGet:
  path: {{ .probe.path }}
  port: {{ .port }}
{{- end }}
initialDelaySeconds: {{ .probe.initialDelaySeconds }}
periodSeconds: {{ .probe.periodSeconds }}
timeoutSeconds: {{ .probe.timeoutSeconds }}
failureThreshold: {{ .probe.failureThreshold }}
{{- end -}}

{{/* Plain environment of every role, then the role's own: (dict "root" $ "env" .Values.api.env). */}}
{{- define "certsvc.envFrom" -}}
- configMapRef:
    name: {{ include "certsvc.fullname" .root }}
- secretRef:
    name: {{ include "certsvc.secretName" .root }}
{{- end -}}

{{/* Scheduling of one role's pods: (dict "root" $ "role" "api"). */}}
{{- define "certsvc.scheduling" -}}
{{- $v := .root.Values -}}
{{- if $v.topologySpread.enabled }}
topologySpreadConstraints:
  {{- range $v.topologySpread.topologyKeys }}
  - maxSkew: {{ $v.topologySpread.maxSkew }}
    topologyKey: {{ . }}
    whenUnsatisfiable: {{ $v.topologySpread.whenUnsatisfiable }}
    labelSelector:
      matchLabels:
        {{- include "certsvc.selectorLabels" (dict "root" $.root "role" $.role) | nindent 8 }}
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

{{- define "certsvc.imagePullSecrets" -}}
{{- $g := .Values.global | default dict -}}
{{- with concat ($g.imagePullSecrets | default list) (.Values.imagePullSecrets | default list) }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Mounts and volumes of `secretFiles` (read-only files from existing Secrets). */}}
{{- define "certsvc.secretFileMounts" -}}
{{- range $i, $f := .Values.secretFiles }}
- name: secret-file-{{ $i }}
  mountPath: {{ $f.mountPath }}
  readOnly: true
{{- end }}
{{- end -}}

{{- define "certsvc.secretFileVolumes" -}}
{{- range $i, $f := .Values.secretFiles }}
- name: secret-file-{{ $i }}
  secret:
    secretName: {{ $f.secret }}
    defaultMode: 288 # 0440: the fsGroup may read
{{- end }}
{{- end -}}
