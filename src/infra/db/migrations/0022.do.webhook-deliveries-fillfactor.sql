-- Half of each page of webhook_deliveries is left free (docs/decisions/0076-webhook-claims-hot.md),
-- so that a sender's claim, which changes no indexed column, is a HOT update: the row's new
-- version stays on its page and no index gets a new entry. A full page made every claim write a
-- new entry into each of the table's six indexes, at the front of the due index where every
-- sender's claim reads, and later claims walked past both entries of each leased delivery.
-- Pages written before this keep their old fill; new ones leave the room.
ALTER TABLE webhook_deliveries SET (fillfactor = 50);
