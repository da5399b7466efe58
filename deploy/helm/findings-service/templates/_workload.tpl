{{/*
One role's Deployment. Call with (dict "root" $ "role" "api" "r" .Values.api "image" .Values.image
"ports" (list (dict "name" "http" "port" 3000)) "env" <YAML list string> "config" true "probePort" "http").
"config": the role reads the ConfigMap and the Secret (envFrom). Replicas are left to the
HorizontalPodAutoscaler when r.autoscaling.enabled.
*/}}
{{- define "findings.deployment" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "findings.fullname" $root }}-{{ .role }}
  labels:
    {{- include "findings.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ .role }}
spec:
  {{- if not .r.autoscaling.enabled }}
  replicas: {{ .r.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "findings.selectorLabels" (dict "root" $root "role" .role) | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "findings.labels" $root | nindent 8 }}
        app.kubernetes.io/component: {{ .role }}
      annotations:
        {{- if .config }}
        checksum/config: {{ include (print $root.Template.BasePath "/configmap.yaml") $root | sha256sum }}
        {{- end }}
        {{- with $v.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      automountServiceAccountToken: false
      enableServiceLinks: false
      {{- with include "findings.imagePullSecrets" $root | trim }}{{ . | nindent 6 }}{{- end }}
      securityContext:
        {{- toYaml $v.podSecurityContext | nindent 8 }}
      containers:
        - name: {{ .role }}
          image: {{ include "findings.imageRef" (dict "root" $root "image" .image) }}
          imagePullPolicy: {{ .image.pullPolicy }}
          workingDir: {{ .image.workingDir }}
          command:
            {{- toYaml .r.command | nindent 12 }}
          ports:
            {{- range .ports }}
            - name: {{ .name }}
              containerPort: {{ .port }}
              protocol: TCP
            {{- end }}
          env:
            {{- .env | nindent 12 }}
            {{- range $key, $value := .r.env }}
            - name: {{ $key }}
              value: {{ $value | toString | quote }}
            {{- end }}
          {{- if .config }}
          envFrom:
            {{- include "findings.envFrom" (dict "root" $root) | nindent 12 }}
          {{- end }}
          readinessProbe:
            {{- include "findings.httpProbe" (dict "probe" .r.probes.readiness "port" .probePort) | nindent 12 }}
          livenessProbe:
            {{- include "findings.httpProbe" (dict "probe" .r.probes.liveness "port" .probePort) | nindent 12 }}
          resources:
            {{- toYaml .r.resources | nindent 12 }}
          securityContext:
            {{- toYaml $v.securityContext | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            {{- with .mounts }}
            {{- . | nindent 12 }}
            {{- end }}
      volumes:
        # The only writable place: the root filesystem is read-only.
        - name: tmp
          emptyDir: { sizeLimit: 256Mi }
        {{- with .volumes }}
        {{- . | nindent 8 }}
        {{- end }}
      {{- with include "findings.scheduling" (dict "root" $root "role" .role) | trim }}{{ . | nindent 6 }}{{- end }}
{{- end -}}
