"""The multi-host layout of docs/operators/multi-host.md, run on one machine (`make multihost`,
`python -m benchmarks.multihost`): layout.py starts the hosts and runs the scenario, clients.py is
the arbiter's browser and the phones' gateway, proxy.py the small proxy in nginx's place."""
