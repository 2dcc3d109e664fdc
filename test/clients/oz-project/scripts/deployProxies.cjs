// Deploys a UUPS proxy (BoxV1), a transparent proxy and a beacon proxy (Counter) the way a
// user of the upgrades plugin would, and prints their addresses as one JSON line.
const { ethers, upgrades } = require('hardhat');

async function main() {
  const [owner] = await ethers.getSigners();

  const BoxV1 = await ethers.getContractFactory('BoxV1');
  const uups = await upgrades.deployProxy(BoxV1, [owner.address, 42], { kind: 'uups' });
  await uups.waitForDeployment();

  const Counter = await ethers.getContractFactory('Counter');
  const transparent = await upgrades.deployProxy(Counter, [7], { kind: 'transparent' });
  await transparent.waitForDeployment();

  const beacon = await upgrades.deployBeacon(Counter);
  await beacon.waitForDeployment();
  const beaconProxy = await upgrades.deployBeaconProxy(beacon, Counter, [9]);
  await beaconProxy.waitForDeployment();

  const result = {
    uups: await uups.getAddress(),
    uupsImplementation: await upgrades.erc1967.getImplementationAddress(await uups.getAddress()),
    transparent: await transparent.getAddress(),
    transparentImplementation: await upgrades.erc1967.getImplementationAddress(await transparent.getAddress()),
    beacon: await beacon.getAddress(),
    beaconProxy: await beaconProxy.getAddress(),
    beaconImplementation: await upgrades.beacon.getImplementationAddress(await beacon.getAddress()),
    value: String(await uups.value()),
  };
  console.log(`RESULT ${JSON.stringify(result)}`);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
