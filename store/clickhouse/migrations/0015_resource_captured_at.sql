-- When the source captured a resource's configuration (AWS Config's
-- configurationItemCaptureTime), kept with the row that stores that
-- configuration, so that compliance evidence can say when what it read was
-- recorded. 1970 (the DateTime zero, read back as "not known") for inputs
-- without a time and for rows written before.
ALTER TABLE resources ADD COLUMN captured_at DateTime('UTC');
