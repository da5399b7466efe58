{{- define "runner.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "runner.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains (include "runner.name" .) .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "runner.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "runner.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "runner.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/part-of: security-platform
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "runner.selectorLabels" -}}
app.kubernetes.io/name: {{ include "runner.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: runner
{{- end -}}

{{- define "runner.image" -}}
{{- $g := .Values.global | default dict -}}
{{- $registry := .Values.image.registry | default $g.imageRegistry | required "image.registry or global.imageRegistry must name the registry of the platform images" -}}
{{- $tag := .Values.image.tag | default $g.imageTag | default .Chart.AppVersion -}}
{{- printf "%s/%s:%s" (trimSuffix "/" $registry) .Values.image.name $tag -}}
{{- end -}}

{{- define "runner.tokenSecret" -}}
{{- if .Values.token.existingSecret -}}
{{- .Values.token.existingSecret -}}
{{- else if .Values.token.value -}}
{{- printf "%s-token" (include "runner.fullname" .) -}}
{{- else -}}
{{- fail "plugin-runner: set token.existingSecret (a Secret holding PLUGIN_RUNNER_TOKEN) or token.value" -}}
{{- end -}}
{{- end -}}

{{- define "runner.httpProbe" -}}
httpGet:
  path: {{ .path }}
  port: http
initialDelaySeconds: {{ .initialDelaySeconds }}
periodSeconds: {{ .periodSeconds }}
timeoutSeconds: {{ .timeoutSeconds }}
failureThreshold: {{ .failureThreshold }}
{{- end -}}
