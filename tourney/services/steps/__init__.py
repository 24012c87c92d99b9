"""Steps: the parts the update pass and the commands are made of; they never run the
update pass themselves."""
