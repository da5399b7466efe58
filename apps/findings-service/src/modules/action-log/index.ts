export * from './finding-action';
export { ActionLogWriter } from './action-log.writer';
export { ActionLogRepository } from './action-log.repository';
export { ActionLogModule } from './action-log.module';
export {
  readFeed,
  FEED_ACTIONS,
  FEED_CONSUMERS,
  FEED_PAGE_SIZE,
  type FeedAction,
  type FeedConsumer,
  type FeedEntry,
  type FeedPage,
  type FeedReadOptions,
} from './action-feed';
export { FeedLagMeter, FEED_LAG_METRIC, FEED_LAG_WARNING_SECONDS } from './action-feed-lag';
