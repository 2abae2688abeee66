"""The tactics study: advice judged against perfect play, with its statistics."""
