/** Webpack entry of the ingestion parser thread (dist/apps/findings-service/ingest-parser.js). */
import './modules/report-ingestion/parser-thread/parser-thread.entry';
