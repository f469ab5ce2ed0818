"""The Batches tab: Message Batches, their progress and costs."""
