import { parentPort } from 'node:worker_threads';
import { runParserThread } from './parser-thread.main';

/** Body of the ingestion parser thread (bundled as ingest-parser.js; see ParserThreadPool). */
if (parentPort) runParserThread(parentPort);
