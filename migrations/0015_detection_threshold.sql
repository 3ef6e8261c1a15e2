-- `/debate config threshold:`: the probability a card needs in a server or channel, as text
-- ("0.6"); empty means the DETECT_MIN_CONFIDENCE setting.
ALTER TABLE server_settings ADD COLUMN threshold TEXT NOT NULL DEFAULT '';
