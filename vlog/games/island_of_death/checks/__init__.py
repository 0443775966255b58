"""Island of Death checks, one module per concern of the rules inventory (sequence, movement and
zones of control, stacking), each registered with the items it reports."""
