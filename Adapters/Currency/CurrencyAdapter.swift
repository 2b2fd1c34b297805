import FeedCore
