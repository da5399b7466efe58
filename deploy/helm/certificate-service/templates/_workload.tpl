{{/*
One role's Deployment. Call with (dict "root" $ "role" "api" "r" .Values.api "image" .Values.image
"ports" (list (dict "name" "http" "port" 3000)) "env" <YAML list string> "config" true "probePort" "http").
"config": the role reads the ConfigMap and the Secret (envFrom). Replicas are left to the
HorizontalPodAutoscaler when r.autoscaling.enabled.
*/}}
{{- define "certsvc.deployment" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "certsvc.fullname" $root }}-{{ .role }}
  labels:
    {{- include "certsvc.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ .role }}
spec:
  {{- if not .r.autoscaling.enabled }}
  replicas: {{ .r.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "certsvc.selectorLabels" (dict "root" $root "role" .role) | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "certsvc.labels" $root | nindent 8 }}
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
      {{- with include "certsvc.imagePullSecrets" $root | trim }}{{ . | nindent 6 }}{{- end }}
      securityContext:
        {{- toYaml $v.podSecurityContext | nindent 8 }}
      containers:
        - name: {{ .role }}
          image: {{ include "certsvc.imageRef" (dict "root" $root "image" .image) }}
          imagePullPolicy: {{ .image.pullPolicy }}
          workingDir: {{ .image.workingDir }}
          command:
            {{- toYaml .r.command | nindent 12 }}
          {{- with .ports }}
          ports:
            {{- range . }}
            - name: {{ .name }}
              containerPort: {{ .port }}
              protocol: TCP
            {{- end }}
          {{- end }}
          env:
            {{- .env | nindent 12 }}
            {{- range $key, $value := .r.env }}
            - name: {{ $key }}
              value: {{ $value | toString | quote }}
            {{- end }}
          {{- if .config }}
          envFrom:
            {{- include "certsvc.envFrom" (dict "root" $root) | nindent 12 }}
          {{- end }}
          readinessProbe:
            {{- include "certsvc.probe" (dict "probe" .r.probes.readiness "port" .probePort) | trim | nindent 12 }}
          livenessProbe:
            {{- include "certsvc.probe" (dict "probe" .r.probes.liveness "port" .probePort) | trim | nindent 12 }}
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
        # Writable scratch space: the root filesystem is read-only.
        - name: tmp
          emptyDir: { sizeLimit: 256Mi }
        {{- with .volumes }}
        {{- . | nindent 8 }}
        {{- end }}
      {{- with include "certsvc.scheduling" (dict "root" $root "role" .role) | trim }}{{ . | nindent 6 }}{{- end }}
{{- end -}}
