// Upgrades the UUPS proxy named by OZ_TEST_PROXY to BoxV2 and prints the result as one JSON line.
const { ethers, upgrades } = require('hardhat');

async function main() {
  const proxy = process.env.OZ_TEST_PROXY;
  if (!proxy) throw new Error('OZ_TEST_PROXY is not set');
  const BoxV2 = await ethers.getContractFactory('BoxV2');
  const upgraded = await upgrades.upgradeProxy(proxy, BoxV2);
  // The plugin keeps the upgrade's transaction where ethers v5 looked for it: waitForDeployment()
  // sees the proxy's code and returns at once, perhaps before the upgrade is mined. Wait for it.
  await upgraded.deployTransaction.wait();
  const result = {
    implementation: await upgrades.erc1967.getImplementationAddress(proxy),
    version: await upgraded.version(),
    value: String(await upgraded.value()),
  };
  console.log(`RESULT ${JSON.stringify(result)}`);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
